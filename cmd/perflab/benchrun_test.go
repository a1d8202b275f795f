package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gitRepo makes a git repository holding a module with one benchmark that
// reports a "version/op" metric, commits it as version 1, then changes the
// working tree to version 2, which also allocates more.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	src := func(version, size int) string {
		return `package m

import "testing"

var sink []byte

func grow() { sink = make([]byte, ` + strconv.Itoa(size) + `) }

func BenchmarkGrow(b *testing.B) {
	for i := 0; i < b.N; i++ {
		grow()
	}
	b.ReportMetric(` + strconv.Itoa(version) + `, "version/op")
}
`
	}
	write("go.mod", "module example.com/m\n\ngo 1.22\n")
	write("m_test.go", src(1, 1<<20))
	git := func(args ...string) {
		runTool(t, dir, []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}, "git", args...)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "version 1")
	write("m_test.go", src(2, 3<<20))
	return dir
}

func TestBenchRunBase(t *testing.T) {
	oracle := benchstatPath(t)
	repo := gitRepo(t)
	out := filepath.Join(t.TempDir(), "results")
	t.Chdir(repo)
	stdout, stderr, code := perflabRun("bench", "run", "-base", "HEAD", "-count", "4", "-benchtime", "20x",
		"-profile", "mem", "-o", out, "-bench", "Grow", ".")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Each side ran the code of its own tree, 4 times.
	for file, version := range map[string]string{"HEAD.txt": " 1.000 version/op", "new.txt": " 2.000 version/op"} {
		data, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(data), version); n != 4 {
			t.Errorf("%s has %d results with %q, want 4:\n%s", file, n, version, data)
		}
	}
	// The comparison is benchstat's on the saved files.
	cmd := exec.Command(oracle, "HEAD=HEAD.txt", "new=new.txt")
	cmd.Dir = out
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout, string(want)) {
		t.Errorf("bench run's table differs from benchstat's:\n--- benchstat\n%s--- perflab\n%s", want, stdout)
	}
	// The memory profiles show grow's share of allocated bytes.
	rest := strings.TrimPrefix(stdout, string(want))
	if !strings.Contains(rest, "memory profile: functions whose share of allocated bytes changed most") ||
		!strings.Contains(rest, "example.com/m.grow") {
		t.Errorf("no profile comparison naming example.com/m.grow:\n%s", rest)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "worktrees")); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(repo, ".git", "worktrees")); len(ents) > 0 {
			t.Errorf("temporary worktree left behind: %v", ents)
		}
	}
}

func TestBenchRunErrors(t *testing.T) {
	repo := gitRepo(t)
	t.Chdir(repo)
	out := t.TempDir()
	tests := []struct {
		args      []string
		code      int
		stderrHas string
	}{
		{[]string{"-base", "nosuchrev", "-bench", "."}, 1, "-base nosuchrev: no such revision"},
		{[]string{"."}, 2, "-bench REGEX is required"},
		{[]string{"-count", "0", "-bench", "."}, 2, "-count must be at least 1"},
		{[]string{"-profile", "block", "-bench", "."}, 2, `unknown profile "block"`},
		{[]string{"-bench", ".", "./nosuchdir"}, 1, "nosuchdir"},
		{[]string{"-bench", "NoSuchBenchmark", "-count", "1"}, 1, `no benchmark matches -bench "NoSuchBenchmark" in .`},
		{[]string{"-bench", ".", "-count", "1", "-benchtime", "1x", "-fail-on", "version>0"}, 2, `-fail-on: unit "version" is not in the input; units present: sec/op, `},
	}
	for _, tt := range tests {
		_, stderr, code := perflabRun(append([]string{"bench", "run", "-o", out}, tt.args...)...)
		if code != tt.code || !strings.Contains(stderr, tt.stderrHas) {
			t.Errorf("bench run %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.stderrHas)
		}
	}
	// A working tree that does not compile.
	if err := os.WriteFile("broken_test.go", []byte("package m\n\nfunc broken() { undefined() }\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := perflabRun("bench", "run", "-o", out, "-base", "HEAD", "-bench", ".", "-count", "1")
	if code != 1 || !strings.Contains(stderr, "new: example.com/m does not compile") || !strings.Contains(stderr, "undefined") {
		t.Errorf("broken tree: exit %d, stderr %q", code, stderr)
	}
}

// TestBenchRunExamplesElvis runs the real benchmarks of examples/elvis and
// checks the summary against benchstat's on the saved file.
func TestBenchRunExamplesElvis(t *testing.T) {
	oracle := benchstatPath(t)
	out := t.TempDir()
	stdout, stderr, code := perflabRun("bench", "run", "-count", "2", "-benchtime", "20x", "-o", out, "-bench", ".", "../../examples/elvis")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cmd := exec.Command(oracle, "new=new.txt")
	cmd.Dir = out
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(want) || !strings.Contains(stdout, "AlgorithmOne") {
		t.Errorf("differs from benchstat:\n--- benchstat\n%s--- perflab\n%s", want, stdout)
	}
}
