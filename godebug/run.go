package godebug

import (
	"errors"
	"io"
	"strings"
)

// MergeGODEBUG returns env with settings ("gctrace=1", ...) merged into
// its GODEBUG variable: the program's other settings are kept, and a
// setting of the same name is replaced.
func MergeGODEBUG(env []string, settings ...string) []string {
	var existing string
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			existing = v
			continue
		}
		out = append(out, kv)
	}
	names := map[string]bool{}
	for _, s := range settings {
		name, _, _ := strings.Cut(s, "=")
		names[name] = true
	}
	var merged []string
	for _, s := range strings.Split(existing, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(s), "=")
		if s != "" && !names[name] {
			merged = append(merged, s)
		}
	}
	merged = append(merged, settings...)
	return append(out, "GODEBUG="+strings.Join(merged, ","))
}

// ScanStderr reads r, the standard error of a program run under GODEBUG
// settings, to its end: handle gets every trace record in order, from the
// calling goroutine; the program's own lines, and with passTrace the trace
// lines too, go to w (nil for nowhere). Package program runs the program.
func ScanStderr(r io.Reader, w io.Writer, passTrace bool, handle func(Record)) error {
	s := NewScanner(r)
	for s.Scan() {
		rec := s.Result()
		_, isText := rec.(*Text)
		_, isBad := rec.(*SyntaxError) // may hold the program's own output
		if (isText || isBad || passTrace) && w != nil {
			w.Write(s.Bytes())
		}
		if !isText && handle != nil {
			handle(rec)
		}
	}
	_, err := io.Copy(io.Discard, r) // let the program finish writing
	return errors.Join(s.Err(), err)
}
