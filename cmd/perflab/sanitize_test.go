package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/term/termtest"
)

// hostileName sets the terminal's title, rings its bell and, with the
// carriage return, overwrites its own report row.
const hostileName = "\x1b]0;pwned\x07evil\rfake"

// hostileProfile writes a CPU profile whose one function is hostileName.
func hostileProfile(t *testing.T) string {
	t.Helper()
	fn := &profile.Function{ID: 1, Name: hostileName, SystemName: hostileName, Filename: "evil.go"}
	loc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn, Line: 3}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10000000,
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{5, 50000000}}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
	return writeTestProfile(t, p, "evil.pb.gz")
}

// TestSanitize prints a profile whose function name holds escape
// sequences: escaped under -sanitize, byte for byte as go tool pprof
// prints it when piped without, escaped by default on a terminal.
func TestSanitize(t *testing.T) {
	bin := perflab(t)
	prof := hostileProfile(t)
	escaped := `\x1b]0;pwned\x07evil\rfake`
	for _, args := range [][]string{{"top", "-sanitize", prof}, {"-sanitize", "top", prof}, {"top", "--sanitize=true", prof}} {
		stdout, stderr, code := runPerflab(t, bin, args...)
		if code != 0 || !strings.Contains(stdout, escaped) || strings.ContainsAny(stdout, "\x1b\r\a") {
			t.Errorf("perflab %q: exit %d, stderr %q, stdout %q; want %q and no raw controls", args, code, stderr, stdout, escaped)
		}
	}
	t.Run("PipedIsPprof", func(t *testing.T) {
		stdout, stderr, code := runPerflab(t, bin, "top", prof)
		if code != 0 || !strings.Contains(stdout, hostileName) {
			t.Fatalf("exit %d, stderr %q, stdout %q; want the raw name", code, stderr, stdout)
		}
		want, _, err := reporttest.RunPprof(t, "", nil, "-top", prof)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal([]byte(stdout), want) {
			t.Errorf("perflab top differs from pprof: %s", reporttest.FirstDiff([]byte(stdout), want))
		}
	})
	t.Run("Terminal", func(t *testing.T) {
		for _, tt := range []struct {
			flag string
			raw  bool
		}{{"", false}, {"-sanitize=false", true}} {
			pty := termtest.Open(t)
			cmd := exec.Command(bin, strings.Fields("top "+tt.flag+" "+prof)...)
			cmd.Stdout, cmd.Stderr = pty.TTY, pty.TTY
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			screen := pty.Screen(t)
			if got := strings.Contains(screen, "\x1b]0;pwned"); got != tt.raw || strings.Contains(screen, escaped) == tt.raw {
				t.Errorf("top %s on a terminal: raw name shown %v, want %v:\n%q", tt.flag, got, tt.raw, screen)
			}
		}
	})
	t.Run("ErrorMessage", func(t *testing.T) {
		_, stderr, code := runPerflab(t, bin, "top", filepath.Join(t.TempDir(), "\x1b[2Jgone.pb"))
		if code != 1 || !strings.Contains(stderr, `\x1b[2Jgone.pb`) || strings.Contains(stderr, "\x1b") {
			t.Errorf("exit %d, stderr %q; want the name escaped", code, stderr)
		}
	})
	t.Run("BadValue", func(t *testing.T) {
		_, stderr, code := runPerflab(t, bin, "top", "-sanitize=maybe", prof)
		if code != 2 || !strings.Contains(stderr, "-sanitize") {
			t.Errorf("exit %d, stderr %q; want a usage error naming -sanitize", code, stderr)
		}
	})
}
