package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
)

const wantOutput = "# of loops: 76000 (including 1 artificial root node)\n"

// TestProgram builds the real command, runs the tuned variant with a CPU
// and a memory profile, and reads both profiles back.
func TestProgram(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/havlak/cmd/havlak")
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

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-variant=fast"}, {"-reps=-1"}, {"-nosuchflag"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || stdout.Len() != 0 || stderr.Len() == 0 {
			t.Errorf("havlak %q: exit %d, stdout %q, stderr %q; want exit 2 and a message", args, code, stdout.String(), stderr.String())
		}
	}
}
