package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/investigate"
	"github.com/perflab/perflab/loadgen"
	"github.com/perflab/perflab/profiles"
)

// TestMain keeps the profiles the report commands fetch from URLs, which
// they save under $PPROF_TMPDIR as go tool pprof does, in a directory of
// the tests' own rather than in ~/pprof.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "perflab-pprof-tmpdir-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(profiles.KeepDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// perflab builds the real binary once per test that asks for it.
func perflab(t *testing.T) string {
	t.Helper()
	return testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
}

// runPerflab runs the binary and returns stdout, stderr and the exit status.
func runPerflab(t *testing.T, bin string, args ...string) (string, string, int) {
	t.Helper()
	return runPerflabIn(t, "", bin, args...)
}

// runPerflabIn is runPerflab in the directory dir ("" for the test's own).
func runPerflabIn(t *testing.T, dir, bin string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func TestHelpListsEveryCommand(t *testing.T) {
	stdout, _, code := runPerflab(t, perflab(t), "help")
	if code != 0 {
		t.Fatalf("perflab help exited %d", code)
	}
	for _, c := range commands {
		if !strings.Contains(stdout, "  "+c.name+" ") {
			t.Errorf("perflab help does not list %q:\n%s", c.name, stdout)
		}
	}
}

func TestExitStatuses(t *testing.T) {
	bin := perflab(t)
	tests := []struct {
		args      []string
		code      int
		stderrHas string
		stdoutHas string
	}{
		{args: nil, code: 2, stderrHas: "usage: perflab COMMAND"},
		{args: []string{"nosuchcommand"}, code: 2, stderrHas: `unknown command "nosuchcommand"`},
		{args: []string{"help", "nosuchcommand"}, code: 2, stderrHas: `unknown command "nosuchcommand"`},
		{args: []string{"help", "version"}, code: 0, stdoutHas: "usage: perflab version"},
		{args: []string{"version"}, code: 0, stdoutHas: "perflab "},
		{args: []string{"version", "extra"}, code: 2, stderrHas: "perflab version: version takes no arguments"},
		{args: []string{"run", "-nosuch"}, code: 2, stderrHas: "perflab: \"run\" is deprecated: it is now perflab investigate\nperflab investigate: flag provided but not defined: -nosuch"},
		{args: []string{"help", "run"}, code: 0, stdoutHas: "usage: perflab investigate "},
	}
	for _, tt := range tests {
		stdout, stderr, code := runPerflab(t, bin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderrHas) || !strings.Contains(stdout, tt.stdoutHas) {
			t.Errorf("perflab %q: exit %d, stdout %q, stderr %q; want exit %d, stdout containing %q, stderr containing %q",
				tt.args, code, stdout, stderr, tt.code, tt.stdoutHas, tt.stderrHas)
		}
	}
}

// TestUsageErrorsKeepTheirChain: a usage error wraps what the library
// returned, so errors.As finds it, and main alone flattens it (exit 2, one
// line naming the command). It runs in process; it costs milliseconds.
func TestUsageErrorsKeepTheirChain(t *testing.T) {
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	err := run(ctx, strings.NewReader(""), &stdout, &stderr, []string{"load", "-n", "1", "-c", "1", "-H", "X-A: b\x01", "http://127.0.0.1:1/"})
	var he *loadgen.HeaderError
	if !errors.As(err, &he) || exitCode(&stderr, err) != 2 || !strings.HasPrefix(stderr.String(), "perflab load: -H: header") {
		t.Errorf("load -H with a control character: %v, stderr %q; want a usage error wrapping *loadgen.HeaderError", err, stderr.String())
	}
	stderr.Reset()
	err = run(ctx, strings.NewReader(""), &stdout, &stderr, []string{"investigate", "-url", "http://192.0.2.1/", "--", "true"})
	var ue *investigate.UsageError
	if !errors.As(err, &ue) || exitCode(&stderr, err) != 2 || !strings.HasPrefix(stderr.String(), "perflab investigate: ") || strings.Contains(stderr.String(), "usage: ") {
		t.Errorf("investigate -url http://192.0.2.1/: %v, stderr %q; want a usage error wrapping *investigate.UsageError", err, stderr.String())
	}
}
