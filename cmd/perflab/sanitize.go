package main

import (
	"io"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/term"
)

// sanitizeUsage describes the -sanitize flag, which every command accepts.
const sanitizeUsage = `Every command accepts -sanitize (anywhere before a "--"): it shows the
control characters of names and messages as escapes such as \x1b and \r,
so that a profile cannot drive the terminal. It is on by default when
the output is a terminal; -sanitize=false turns it off there. Piped
output is kept byte for byte, as go tool pprof writes it.
`

// sanitizeFlag takes the -sanitize flag out of args wherever it appears
// before "--", so that every command accepts it, and returns what it asks:
// nil when it is absent, else on or off.
func sanitizeFlag(args []string) ([]string, *bool, error) {
	var want *bool
	var rest []string
	for i, a := range args {
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || strings.TrimPrefix(name, "-") != "sanitize" {
			rest = append(rest, a)
			continue
		}
		on := true
		if hasValue {
			v, err := strconv.ParseBool(value)
			if err != nil {
				return nil, nil, usageErrorf("invalid value %q for flag -sanitize: want true or false", value)
			}
			on = v
		}
		want = &on
	}
	return rest, want, nil
}

// sanitizeOutput wraps stdout and stderr in term.Sanitize: each when it is
// a terminal, both when want is true, neither when want is false. The
// returned flush writes what the wrappers hold back.
func sanitizeOutput(stdout, stderr io.Writer, want *bool) (io.Writer, io.Writer, func()) {
	var flushes []func() error
	wrap := func(w io.Writer) io.Writer {
		if want != nil && !*want || want == nil && !term.IsTTY(w) {
			return w
		}
		s := term.Sanitize(w)
		flushes = append(flushes, s.Flush)
		return s
	}
	stdout, stderr = wrap(stdout), wrap(stderr)
	return stdout, stderr, func() {
		for _, f := range flushes {
			f()
		}
	}
}
