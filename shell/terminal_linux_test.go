package shell

import (
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/term/termtest"
	"github.com/perflab/perflab/report"
)

// TestTerminalEditing runs the shell on a real pseudo-terminal and types
// as a person would: "to" and Tab complete to top, Up recalls it, Ctrl-D
// ends the session.
func TestTerminalEditing(t *testing.T) {
	t.Setenv("TERM", "xterm")
	pty := termtest.Open(t)
	done := make(chan error, 1)
	go func() { done <- New(testProfile(), report.DefaultOptions(), pty.TTY, pty.TTY).Run(pty.TTY) }()
	pty.WaitFor(t, "(pprof) ")
	pty.Type(t, "to\t -cum\r")
	pty.WaitFor(t, "Showing nodes accounting for")
	pty.Type(t, "\x1b[A\r")
	pty.WaitFor(t, "(pprof) top -cum\r\n")
	// Ctrl-D at the next prompt: typed while the report still prints, the
	// terminal is not in raw mode yet and would take it as its own EOF.
	for deadline := time.Now().Add(10 * time.Second); strings.Count(pty.WaitFor(t, "(pprof) "), "(pprof) ") < 3; {
		if time.Now().After(deadline) {
			t.Fatal("no prompt after the recalled command")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pty.Type(t, "\x04")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-D did not end the session")
	}
	screen := pty.Screen(t) // everything the session drew
	if n := strings.Count(screen, "Showing nodes accounting for"); n != 2 || strings.Contains(screen, "unrecognized command") {
		t.Errorf("the terminal shows %q; want top's report twice (typed, then recalled) and no error", screen)
	}
}
