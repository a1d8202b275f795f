package benchrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInterleaves runs a real benchmark on a base revision and on the
// working tree and checks that runs alternate old, new, old, new.
func TestRunInterleaves(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/r\n\ngo 1.22\n",
		"r_test.go": `package r

import "testing"

func BenchmarkNop(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
}
`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "base"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var sides []string
	res, err := Run(context.Background(), Config{
		Dir: dir, Bench: "Nop", Count: 3, Benchtime: "10x", Base: "HEAD", OutDir: t.TempDir(),
		Progress: func(run, total int, side, pkg string) {
			if total != 6 || pkg != "example.com/r" {
				t.Errorf("progress %d/%d %s %s", run, total, side, pkg)
			}
			sides = append(sides, side)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sides, " "); got != "HEAD new HEAD new HEAD new" {
		t.Errorf("run order %q, want alternating sides", got)
	}
	for _, s := range []*Side{res.Old, res.New} {
		data, err := os.ReadFile(s.Results)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), "BenchmarkNop"); n != 3 {
			t.Errorf("%s: %d results, want 3", s.Results, n)
		}
	}
}
