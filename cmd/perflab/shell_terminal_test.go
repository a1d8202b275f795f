package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/term/termtest"
)

// TestShellTerminalSanitized runs perflab shell as a person does: the
// binary on a real pseudo-terminal, with the default flags, so that its
// output is sanitized. Tab completes a command, Up recalls the previous
// line, Tab completes a function name of the profile, and the hostile
// name shows escaped both in the completed line and in the report.
func TestShellTerminalSanitized(t *testing.T) {
	t.Setenv("TERM", "xterm")
	t.Setenv("CI", "")
	evil := "main.\x1b]0;pwned\x07evil"
	fns := []*profile.Function{
		{ID: 1, Name: "main.main", SystemName: "main.main", Filename: "main.go"},
		{ID: 2, Name: evil, SystemName: evil, Filename: "evil.go"},
	}
	locs := []*profile.Location{
		{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fns[0], Line: 3}}},
		{ID: 2, Address: 0x2000, Line: []profile.Line{{Function: fns[1], Line: 5}}},
	}
	prof := writeTestProfile(t, &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Sample:   []*profile.Sample{{Location: []*profile.Location{locs[1], locs[0]}, Value: []int64{5, 50000000}}},
		Location: locs, Function: fns,
	}, "evil.pb.gz")

	pty := termtest.Open(t)
	cmd := exec.Command(perflab(t), "shell", prof)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pty.TTY, pty.TTY, pty.TTY
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	exited := false
	t.Cleanup(func() {
		if !exited {
			cmd.Process.Kill()
			<-done
		}
	})

	prompts := func(n int) { // waits for the n-th prompt: the line editor is reading
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); strings.Count(pty.WaitFor(t, "(pprof) "), "(pprof) ") < n; {
			if time.Now().After(deadline) {
				t.Fatalf("no prompt %d; the terminal shows %q", n, pty.Screen(t))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	prompts(1)
	pty.Type(t, "to\t\r")
	pty.WaitFor(t, "Showing nodes accounting for")
	prompts(2)
	pty.Type(t, "\x1b[A\r")
	prompts(3)
	pty.Type(t, "list pwn\t")
	pty.WaitFor(t, `list main.\x1b]0;pwned\x07evil`)
	pty.Type(t, "\r")
	pty.WaitFor(t, "ROUTINE ======================== ")
	prompts(4)
	pty.Type(t, "\x04")
	select {
	case err := <-done:
		exited = true
		if err != nil {
			t.Fatalf("perflab shell: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-D did not end the session")
	}
	screen := pty.Screen(t)
	if n := strings.Count(screen, "Showing nodes accounting for"); n != 2 || strings.Contains(screen, "unrecognized command") {
		t.Errorf("the terminal shows %q; want top's report twice (completed, then recalled) and no error", screen)
	}
	if strings.Contains(screen, "\x1b]0;pwned") || strings.Contains(screen, "\a") {
		t.Errorf("the profile's escape sequence reached the terminal raw: %q", screen)
	}
}
