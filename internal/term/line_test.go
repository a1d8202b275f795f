package term

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
)

// TestLineOnSanitizedTerminal draws a status line through a Sanitizer on a
// pseudo-terminal: the line's own carriage returns reach the terminal, the
// escape sequence in its text does not.
func TestLineOnSanitizedTerminal(t *testing.T) {
	t.Setenv("CI", "")
	pty := termtest.Open(t)
	s := Sanitize(pty.TTY)
	if !IsTerminal(s) {
		t.Fatal("a Sanitizer on a terminal is not seen as a terminal")
	}
	l := NewLine(s)
	l.Printf("fetching \x1b]0;pwned\x07")
	l.Clear()
	s.Write([]byte("done \x1b[2J\n"))
	screen := pty.Screen(t)
	if strings.Contains(screen, "\x1b") || strings.Contains(screen, "\a") {
		t.Errorf("an escape sequence reached the terminal: %q", screen)
	}
	drawn := `fetching \x1b]0;pwned\x07`
	for _, want := range []string{"\r" + drawn, "\r" + strings.Repeat(" ", len(drawn)) + "\r", `done \x1b[2J`} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen %q lacks %q", screen, want)
		}
	}
}
