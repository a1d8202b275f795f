package goroutines_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// progOnce builds testdata/prog.go.txt once per test binary, without
// optimizations (-N -l) as the article's reading of argument words needs.
var (
	progOnce sync.Once
	progPath string
	progErr  error
	progDir  string
)

// prog returns the path of the built test program and its source file.
func prog(t *testing.T) (bin, src string) {
	t.Helper()
	progOnce.Do(func() {
		progDir, progErr = os.MkdirTemp("", "goroutines-prog")
		if progErr != nil {
			return
		}
		data, err := os.ReadFile("testdata/prog.go.txt")
		if err != nil {
			progErr = err
			return
		}
		os.WriteFile(filepath.Join(progDir, "main.go"), data, 0o644)
		os.WriteFile(filepath.Join(progDir, "go.mod"), []byte("module testprog\n\ngo 1.26\n"), 0o644)
		progPath = filepath.Join(progDir, "prog")
		cmd := exec.Command("go", "build", "-gcflags=-N -l", "-o", progPath, ".")
		cmd.Dir = progDir
		if out, err := cmd.CombinedOutput(); err != nil {
			progErr = err
			progPath = string(out)
		}
	})
	if progErr != nil {
		t.Fatalf("building the test program: %v\n%s", progErr, progPath)
	}
	return progPath, filepath.Join(progDir, "main.go")
}

// runProg runs the test program with args and environment, and returns its
// standard output and error together (the runtime writes dumps to the
// latter).
func runProg(t *testing.T, env []string, args ...string) []byte {
	t.Helper()
	bin, _ := prog(t)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out.Bytes()
}

// read parses a dump and sorts it, failing the test on an error.
func read(t *testing.T, name string, data []byte) *goroutines.Dump {
	t.Helper()
	d := goroutines.NewDump()
	if err := goroutines.Read(name, bytes.NewReader(data), d, goroutines.Options{}); err != nil {
		t.Fatalf("Read: %v\n%s", err, data)
	}
	d.Sort()
	return d
}

// findGroup returns the group whose frames include fn, or fails.
func findGroup(t *testing.T, d *goroutines.Dump, fn string) *goroutines.Group {
	t.Helper()
	for _, g := range d.Groups {
		for _, f := range g.Frames {
			if f.Func == fn {
				return g
			}
		}
	}
	var b strings.Builder
	d.WriteText(&b, goroutines.TextOptions{})
	t.Fatalf("no group with %s in:\n%s", fn, b.String())
	return nil
}
