// Package reporttest supports tests that compare perflab's reports with
// `go tool pprof`: it builds and runs a real Go program that writes every
// kind of runtime profile, and runs the real pprof on them.
package reporttest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// Profiles are the files one run of the workload program wrote, by name:
// "cpu.pb.gz" (some samples carry pprof labels), "cpu2.pb.gz" (a second,
// shorter CPU profile, a base for -base) and, for each of Kinds,
// NAME.pb.gz (proto) and NAME.txt (legacy debug=1 text).
type Profiles struct {
	Dir    string
	Binary string // the workload program
}

// Path returns the path of the profile called name.
func (p *Profiles) Path(name string) string { return filepath.Join(p.Dir, name) }

// Kinds lists the runtime profiles the program writes besides CPU ones.
var Kinds = []string{"heap", "allocs", "block", "mutex", "goroutine", "threadcreate"}

// Generate builds the workload program and runs it once, writing its
// profiles into a temporary directory of t.
func Generate(t testing.TB) *Profiles {
	t.Helper()
	dir := t.TempDir()
	// The source stays in testprog's build directory for the test's
	// lifetime, where the profiles' file names point: list reads it there.
	bin := testprog.BuildSource(t, workload)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("workload: %v\n%s", err, out)
	}
	return &Profiles{Dir: dir, Binary: bin}
}

// Pprof returns the path of the pprof binary `go tool pprof` runs, so that
// tests can call it without the go command's overhead, or skips t when
// there is no Go toolchain (fails under PERFLAB_REQUIRE_ORACLES=1).
func Pprof(t testing.TB) string {
	t.Helper()
	return testprog.Oracle(t, "pprof")
}

// RunPprof runs pprof with args in dir and returns its stdout and stderr.
func RunPprof(t testing.TB, dir string, stdin []byte, args ...string) (stdout, stderr []byte, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, Pprof(t), args...)
	cmd.Dir = dir
	// pprof saves fetched profiles under $HOME/pprof; keep that in the test.
	cmd.Env = append(os.Environ(), "PPROF_TMPDIR="+t.TempDir())
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

// FirstDiff describes where got and want first differ, for test failures.
func FirstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "identical"
}
