package demo

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
)

// TestProgressOnTerminal runs the demo with a terminal as Options.Progress
// and checks that both runs' progress was drawn there, and cleared.
func TestProgressOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	pty := termtest.Open(t)
	if _, err := Run(context.Background(), &bytes.Buffer{}, Options{Reps: 1, Progress: pty.TTY}); err != nil {
		t.Fatal(err)
	}
	s := pty.Screen(t)
	for _, want := range []string{`naive: 2 of 2 searches done, \d+\.\ds`, `tuned: 1 of 2 searches done`, `\r +\r`} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("terminal lacks %q: %q", want, s)
		}
	}
}
