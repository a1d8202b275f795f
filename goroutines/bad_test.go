package goroutines_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// repeatReader yields n copies of byte c without holding them.
type repeatReader struct {
	c byte
	n int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), r.n))
	for i := range p[:n] {
		p[i] = r.c
	}
	r.n -= int64(n)
	return n, nil
}

func TestBadInput(t *testing.T) {
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	for _, tc := range []struct {
		name, input string
		is          error
		msg         string
	}{
		{"empty", "", goroutines.ErrEmpty, "empty: empty input"},
		{"text", "hello\nworld\n", goroutines.ErrNotDump, "text: not a goroutine dump: no goroutine header in 2 lines"},
		{"junk", "\x00\x01\x02\xff\xfe binary junk", goroutines.ErrNotDump, "junk: not a goroutine dump: binary data"},
		{"gzjunk", string(gz([]byte("not a profile"))), goroutines.ErrNotDump, "gzjunk: not a goroutine dump: binary data"},
		{"header only", "goroutine 1 [running]\n", goroutines.ErrNotDump, "header only: not a goroutine dump"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := goroutines.Read(tc.name, strings.NewReader(tc.input), goroutines.NewDump(), goroutines.Options{})
			if !errors.Is(err, tc.is) || !strings.HasPrefix(err.Error(), tc.msg) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want %v starting %q on one line", err, tc.is, tc.msg)
			}
		})
	}
}

// TestLongLine reads a single line of 100 MB: a clear error, in bounded
// memory.
func TestLongLine(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := goroutines.Read("big", &repeatReader{'a', 100 << 20}, goroutines.NewDump(), goroutines.Options{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, goroutines.ErrLineTooLong) || err.Error() != "big: line 1: line too long for a goroutine dump (over 1048576 bytes)" {
		t.Errorf("error %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d bytes reading a long line", alloc)
	}
}

// TestCutEverywhere cuts a real dump at every byte: each prefix is read
// without error once it holds a goroutine header, groups what is whole,
// and is noted as cut when it ends mid-line, unless its last line ends a
// stack (a creator's location, or that of main.main below which
// GOTRACEBACK=all prints no frame): a whole dump saved without its last
// end of line is not cut.
func TestCutEverywhere(t *testing.T) {
	out := runProg(t, []string{"GOTRACEBACK=all"}, "panic")
	first := bytes.Index(out, []byte("]:\n")) + 3
	for n := first; n < len(out); n++ {
		d := goroutines.NewDump()
		if err := goroutines.Read("cut", bytes.NewReader(out[:n]), d, goroutines.Options{}); err != nil {
			t.Fatalf("cut at %d: %v", n, err)
		}
		noted := strings.Contains(strings.Join(d.Notes, "\n"), "ends mid-line")
		if out[n-1] != '\n' && !noted && !endsStack(out[:n]) {
			t.Fatalf("cut at %d: no note in %q (%q)", n, d.Notes, out[max(0, n-80):n])
		}
		if noted && (out[n-1] == '\n' || endsStack(out[:n])) {
			t.Fatalf("cut at %d, after a whole line or stack: note %q (%q)", n, d.Notes, out[max(0, n-80):n])
		}
		for _, g := range d.Groups {
			for _, f := range g.Frames {
				if f.File == "" && g.Truncated == 0 {
					t.Fatalf("cut at %d: frame %+v without file, not marked truncated", n, f)
				}
			}
		}
	}
}

var locationLine = regexp.MustCompile(`^\t\S.*:\d+( |$)`)

// endsStack reports whether the last line of dump is the location of a
// creator or of main.main, which end a stack at GOTRACEBACK=all.
func endsStack(dump []byte) bool {
	lines := strings.Split(string(dump), "\n")
	if len(lines) < 2 || !locationLine.MatchString(lines[len(lines)-1]) {
		return false
	}
	call := lines[len(lines)-2]
	return strings.HasPrefix(call, "created by ") || call == "main.main()"
}

// escapeDump is a panic whose message and label hold terminal escape
// sequences (clear the screen, set the clipboard through OSC 52, ended by
// BEL), as a program can print.
const escapeDump = "panic: \x1b[2Jowned \x1b]52;c;ZXZpbA==\x07\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/app/main.go:12 +0x1d\n" +
	"\ngoroutine 7 [chan receive]:\n{x: \"\x1b[31mred\"}\nmain.wait()\n\t/src/app/main.go:20 +0x2e\n"

// TestEscapesAreText reads a dump that holds escape sequences: it is a
// dump (it used to be refused as binary data), and the sequences are kept
// for the output to sanitize.
func TestEscapesAreText(t *testing.T) {
	d := goroutines.NewDump()
	if err := goroutines.Read("escapes.txt", strings.NewReader(escapeDump), d, goroutines.Options{}); err != nil {
		t.Fatal(err)
	}
	if d.Total != 2 || !strings.Contains(d.Panic, "\x1b]52;c;") {
		t.Errorf("read %d goroutines, panic %q", d.Total, d.Panic)
	}
}
