package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/internal/testprog"
)

const wantOutput = "# of loops: 76000 (including 1 artificial root node)\n"

// TestProgram builds the real command, runs the tuned variant with a CPU
// and a memory profile, reads both profiles back, and checks the exit
// statuses end to end.
func TestProgram(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/havlak/cmd/havlak")
	t.Run("profiles", func(t *testing.T) { testProfiles(t, bin) })
	t.Run("exit status", func(t *testing.T) { testExitStatus(t, bin) })
}

func testProfiles(t *testing.T, bin string) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "havlak.prof"), filepath.Join(dir, "havlak.mprof")
	out, err := exec.Command(bin, "-variant=tuned", "-reps=2", "-cpuprofile="+cpu, "-memprofile="+mem).CombinedOutput()
	if err != nil || string(out) != wantOutput {
		t.Fatalf("havlak -variant=tuned: %v, output %q, want %q", err, out, wantOutput)
	}
	for _, name := range []string{cpu, mem} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := profile.Parse(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Both profiles must show the workload: the CPU profile some of
		// its functions, the allocation profile the finder's first search.
		want := "examples/havlak."
		if name == mem {
			want = "havlak.(*LoopFinder).FindLoops"
		}
		if !hasFunction(p, want) {
			t.Errorf("%s: no function matching %q", name, want)
		}
	}
}

func hasFunction(p *profile.Profile, part string) bool {
	for _, f := range p.Function {
		if strings.Contains(f.Name, part) {
			return true
		}
	}
	return false
}

// testExitStatus runs the real command: 0 on success, 2 for a bad command
// line (-h included), 1 if a profile cannot be written.
func testExitStatus(t *testing.T, bin string) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args             []string
		code             int
		stdout, inStderr string
	}{
		{[]string{"-variant=tuned", "-reps=0"}, 0, wantOutput, ""},
		{[]string{"-h"}, 0, "", "Usage of havlak"},
		{[]string{"-nosuchflag"}, 2, "", "-nosuchflag"},
		{[]string{"-variant=fast"}, 2, "", "havlak: -variant: "},
		{[]string{"-reps=-1"}, 2, "", "havlak: -reps=-1: must not be negative"},
		{[]string{"-variant=tuned", "-reps=0", "-cpuprofile=" + filepath.Join(notDir, "havlak.prof")}, 1, wantOutput, "havlak: "},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("havlak %q: %v", tt.args, err)
		}
		code := cmd.ProcessState.ExitCode()
		if code != tt.code || stdout.String() != tt.stdout || !strings.Contains(stderr.String(), tt.inStderr) {
			t.Errorf("havlak %q: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr holding %q",
				tt.args, code, stdout.String(), stderr.String(), tt.code, tt.stdout, tt.inStderr)
		}
	}
}

// TestBadFlags checks that run rejects bad command lines as cli.FlagError or
// cli.UsageError, which main turns into exit status 2 and a message.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-variant=fast"}, {"-reps=-1"}, {"-nosuchflag"}} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, args)
		if !errors.As(err, new(cli.FlagError)) && !errors.As(err, new(cli.UsageError)) {
			t.Errorf("havlak %q: run returned %#v, want a cli.FlagError or cli.UsageError", args, err)
		}
		if code := cli.ExitStatus("havlak", err, &stderr); code != 2 || stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("havlak %q: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, stdout.String(), stderr.String())
		}
	}
}
