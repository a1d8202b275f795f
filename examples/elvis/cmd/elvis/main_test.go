package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os/exec"
	"strings"
	"testing"

	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/internal/testprog"
)

func TestReplace(t *testing.T) {
	for _, alg := range []string{"reader", "scan"} {
		var out bytes.Buffer
		if err := replace(alg, strings.NewReader("elvielviselvis e l v i s"), &out); err != nil {
			t.Fatalf("-alg=%s: %v", alg, err)
		}
		if want := "elviElvisElvis e l v i s"; out.String() != want {
			t.Errorf("-alg=%s: got %q, want %q", alg, out.String(), want)
		}
	}
	err := replace("fast", strings.NewReader(""), &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "-alg=fast") {
		t.Errorf("unknown algorithm: got %v, want an error naming -alg=fast", err)
	}
}

// commandLines are whole runs of the command: flags, standard input and
// output, and the exit status.
var commandLines = []struct {
	args             []string
	code             int
	stdout, inStderr string
}{
	{nil, 0, "elviElvis\n", ""},
	{[]string{"-alg=reader"}, 0, "elviElvis\n", ""},
	{[]string{"-h"}, 0, "", "Usage of elvis"},
	{[]string{"-alg=fast"}, 1, "", "elvis: -alg=fast"},
	{[]string{"-nosuchflag"}, 2, "", "-nosuchflag"},
}

const stdin = "elvielvis\n"

// TestCommandLine runs the whole command in the test process: run's error
// must be of the kind main maps to the exit status.
func TestCommandLine(t *testing.T) {
	for _, tt := range commandLines {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), strings.NewReader(stdin), &stdout, &stderr, tt.args)
		var kind bool
		switch tt.code {
		case 0:
			kind = err == nil || errors.Is(err, flag.ErrHelp)
		case 1:
			kind = err != nil && !errors.As(err, new(cli.FlagError))
		case 2:
			kind = errors.As(err, new(cli.FlagError))
		}
		if !kind {
			t.Errorf("elvis %q: run returned %#v, the wrong kind of error for exit %d", tt.args, err, tt.code)
		}
		code := cli.ExitStatus("elvis", err, &stderr)
		if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.inStderr) {
			t.Errorf("elvis %q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr holding %q",
				tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.inStderr)
		}
	}
}

// TestProgram runs the real command for each command line and checks its
// exit status, output and messages end to end.
func TestProgram(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/elvis/cmd/elvis")
	for _, tt := range commandLines {
		cmd := exec.Command(bin, tt.args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &stdout, &stderr
		err := cmd.Run()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("elvis %q: %v", tt.args, err)
		}
		code := cmd.ProcessState.ExitCode()
		if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.inStderr) {
			t.Errorf("elvis %q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr holding %q",
				tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.inStderr)
		}
	}
}
