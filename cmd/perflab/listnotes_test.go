package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
)

const listNotesSrc = `package main

import (
	"os"
	"runtime"
	"runtime/pprof"
)

type point struct{ x, y int }

var keep *point

//go:noinline
func newPoint(i int) *point {
	p := point{i, i}
	return &p
}

func main() {
	runtime.MemProfileRate = 1
	for i := range 1000 {
		keep = newPoint(i)
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
}
`

// runCapture runs perflab in-process and returns stdout, stderr and the error.
func runCapture(args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(""), &stdout, &stderr, args)
	return stdout.String(), stderr.String(), err
}

// TestListCompiler: list -compiler shows the compiler's notes under their
// lines, and is otherwise the plain listing; without the source it says
// so in one line and prints the plain listing.
func TestListCompiler(t *testing.T) {
	bin := testprog.Build(t, map[string]string{"main.go": listNotesSrc})
	prof := filepath.Join(t.TempDir(), "allocs.pprof")
	if out, err := exec.Command(bin, prof).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	plain, _, err := runCapture("list", "-alloc_space", "main.newPoint", prof)
	if err != nil {
		t.Fatal(err)
	}
	notes, stderr, err := runCapture("list", "-compiler", "-alloc_space", "main.newPoint", prof)
	if err != nil || stderr != "" {
		t.Fatalf("list -compiler: %v, stderr %q", err, stderr)
	}
	lines := strings.Split(notes, "\n")
	var kept []string
	want := map[string]string{"func newPoint(i int) *point {": "| cannot inline newPoint: marked go:noinline", "p := point{i, i}": "| moved to heap: p"}
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "| ") {
			continue
		}
		kept = append(kept, l)
		for src, note := range want {
			if strings.HasSuffix(l, src) {
				if i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) != note {
					t.Errorf("line %q: next line %q, want %q", l, lines[min(i+1, len(lines)-1)], note)
				}
				delete(want, src)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("lines not listed: %v\n%s", want, notes)
	}
	if got := strings.Join(kept, "\n"); got != plain {
		t.Errorf("list -compiler without its notes differs from list:\n%s\nwant\n%s", got, plain)
	}

	// The same profile naming source files that are not there.
	p := readProfileFile(t, prof)
	for _, fn := range p.Function {
		if strings.HasSuffix(fn.Filename, "main.go") {
			fn.Filename = filepath.Join(t.TempDir(), "gone", "main.go")
		}
	}
	moved := filepath.Join(t.TempDir(), "moved.pprof")
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(moved, buf.Bytes(), 0o666)
	plain, _, _ = runCapture("list", "main.newPoint", moved)
	got, stderr, err := runCapture("list", "-compiler", "main.newPoint", moved)
	if err != nil || got != plain || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no compiler notes") {
		t.Errorf("missing source: err %v, stderr %q, output differs from plain list: %v", err, stderr, got != plain)
	}
}

func readProfileFile(t *testing.T, path string) *profile.Profile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
