package main

import (
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/term/termtest"
)

// TestCountdownOnTerminal runs "perflab fetch -seconds 2" against a real
// net/http/pprof server with a terminal as stderr and checks the countdown
// drawn there, and that the line is cleared when the fetch ends.
func TestCountdownOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	pty := termtest.Open(t)
	srv, _, _ := fetchServer(t)
	out := filepath.Join(t.TempDir(), "cpu.pb.gz")
	args := []string{"fetch", "-seconds", "2", "-o", out, srv.URL}
	if err := run(context.Background(), nil, io.Discard, pty.TTY, args); err != nil {
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
	if !regexp.MustCompile(`\r {20,}\r(Saved the profile.*\n)?$`).MatchString(s) {
		t.Errorf("the terminal shows %q; want the line cleared when the fetch ends", s)
	}
}
