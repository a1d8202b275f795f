package profiles

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
)

// TestCountdownOnTerminal fetches a 2-second CPU profile with a terminal
// as Options.Status and checks the countdown drawn there.
func TestCountdownOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	pty := termtest.Open(t)
	srv, _ := pprofServer(t)
	if _, err := Load(context.Background(), []string{srv.URL}, Options{Seconds: 2, Status: pty.TTY}); err != nil {
		t.Fatal(err)
	}
	s := pty.Screen(t)
	u := srv.URL + "/debug/pprof/profile?seconds=2"
	for _, want := range []string{
		"\rFetching " + u + ": collecting, 2s left",
		"\rFetching " + u + ": collecting, 1s left",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the terminal shows %q; want it to contain %q", s, want)
		}
	}
	if !regexp.MustCompile(`\r {20,}\r$`).MatchString(s) {
		t.Errorf("the terminal shows %q; want the line cleared when the fetch ends", s)
	}
}
