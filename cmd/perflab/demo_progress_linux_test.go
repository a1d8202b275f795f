package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
)

// TestDemoProgressOnTerminal runs the demo with a terminal as stderr and
// checks that both runs' progress was drawn there, and cleared.
func TestDemoProgressOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	pty := termtest.Open(t)
	args := []string{"-reps", "1", "-o", t.TempDir()}
	if err := runDemo(context.Background(), nil, &bytes.Buffer{}, pty.TTY, args); err != nil {
		t.Fatal(err)
	}
	s := pty.Screen(t)
	for _, want := range []string{`naive: 2 of 2 searches done, \d+\.\ds`, `tuned: 1 of 2 searches done`, `\r +\r`} {
		if !regexp.MustCompile(want).MatchString(s) {
			t.Errorf("terminal lacks %q: %q", want, s)
		}
	}
}
