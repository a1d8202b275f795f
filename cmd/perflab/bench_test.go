package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// benchstatPath returns the benchstat oracle, or skips the test when it is
// not installed (scripts/test installs it).
func benchstatPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("benchstat"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "benchstat")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("benchstat is not installed; scripts/test installs it")
	return ""
}

// perflabRun runs perflab in-process and returns stdout, stderr and the exit
// status main would return.
func perflabRun(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, args)
	code := exitCode(&stderr, err)
	return stdout.String(), stderr.String(), code
}

// runTool runs a program in dir with extra environment variables.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS="), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// makeBenchData runs the real benchmarks of bench/testdata/benchshapes in
// many shapes and writes the result files into a temporary directory:
//
//	base.txt    6 runs of every benchmark: sub-benchmarks, MB/s, B/op,
//	            allocs/op, custom units (widgets/op, ns/item)
//	slow.txt    the same with BENCH_SLOW=1: Sum slower, Alloc bigger
//	one.txt     a single run (n too small for significance)
//	cpus.txt    -cpu 1,2: names with and without the -2 suffix
//	partial.txt Sum only: the other benchmarks are in one file only
//	multi.txt   two packages and extra file-level keys: several configs
//	meta.txt    base.txt with "Unit widgets/op assume=exact"
//	bad.txt     slow.txt with malformed benchmark lines
//	empty.txt   no benchmark results
func makeBenchData(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../bench/testdata/benchshapes")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	runTool(t, mod, nil, "go", "test", "-c", "-o", "shapes.test", ".")
	runTool(t, mod, nil, "go", "test", "-c", "-o", "other.test", "./other")
	bench := func(bin string, env []string, args ...string) string {
		args = append([]string{"-test.run=^$", "-test.benchtime=300x"}, args...)
		return runTool(t, mod, env, filepath.Join(mod, bin), args...)
	}
	slow := []string{"BENCH_SLOW=1"}
	base := bench("shapes.test", nil, "-test.bench=.", "-test.benchmem", "-test.count=6")
	slowOut := bench("shapes.test", slow, "-test.bench=.", "-test.benchmem", "-test.count=6")
	files := map[string]string{
		"base.txt":    base,
		"slow.txt":    slowOut,
		"one.txt":     bench("shapes.test", nil, "-test.bench=.", "-test.benchmem", "-test.count=1"),
		"cpus.txt":    bench("shapes.test", nil, "-test.bench=Sum", "-test.cpu=1,2", "-test.count=5"),
		"partial.txt": bench("shapes.test", slow, "-test.bench=Sum", "-test.count=6"),
		"multi.txt": "commit: 1234abcd\nnote: first\n" + base +
			"note: second\n" + bench("other.test", nil, "-test.bench=.", "-test.count=6") +
			bench("shapes.test", slow, "-test.bench=Alloc", "-test.benchmem", "-test.count=6"),
		"meta.txt":  "Unit widgets/op assume=exact\n" + base,
		"bad.txt":   injectBadLines(slowOut),
		"empty.txt": "goos: linux\nPASS\nok  \texample.com/shapes\t0.1s\n",
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// injectBadLines puts malformed benchmark lines among real ones.
func injectBadLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	bad := []string{
		"BenchmarkBroken-2   \t  x12 \t 5 ns/op\n",
		"BenchmarkBroken-2   \t  100\n",
		"BenchmarkBroken-2   \t  100 \t 12\n",
		"BenchmarkBroken-2   \t  100 \t twelve ns/op\n",
	}
	out := slices.Clone(lines[:5])
	out = append(out, bad...)
	return strings.Join(append(out, lines[5:]...), "")
}

// benchstatCases are argument lists given to both benchstat and perflab.
var benchstatCases = [][]string{
	{"base.txt", "slow.txt"},
	{"-format", "csv", "base.txt", "slow.txt"},
	{"base.txt", "slow.txt", "one.txt"},
	{"one.txt", "one.txt"},
	{"one.txt"},
	{"base.txt"},
	{"base.txt", "partial.txt"},
	{"partial.txt", "base.txt"},
	{"cpus.txt"},
	{"cpus.txt", "partial.txt"},
	{"multi.txt", "slow.txt"},
	{"-format", "csv", "multi.txt", "slow.txt"},
	{"meta.txt", "slow.txt"},
	{"bad.txt", "base.txt"},
	{"-format", "csv", "bad.txt", "one.txt"},
	{"old=base.txt", "new=slow.txt"},
	{"-alpha", "0.001", "-confidence", "0.5", "base.txt", "slow.txt"},
	{"-col", "/n", "-row", ".name", "base.txt"},
	{"-col", "/n", "slow.txt"},
	{"-row", ".name", "base.txt", "slow.txt"},
	{"-filter", ".name:Sum", "base.txt", "slow.txt"},
	{"-filter", "-.unit:B/s", "base.txt", "slow.txt"},
	{"-table", "", "-col", ".file", "multi.txt", "base.txt"},
	{"-table", ".config", "-ignore", "note,commit", "multi.txt", "slow.txt"},
	{"-col", ".file,/n", "-row", ".name", "base.txt", "slow.txt"},
	{"-format", "csv", "-col", "/n@(4096 64)", "-row", ".name", "base.txt"},
	{"empty.txt", "base.txt"},
}

func TestBenchCompareMatchesBenchstat(t *testing.T) {
	oracle := benchstatPath(t)
	dir := makeBenchData(t)
	t.Chdir(dir)
	for _, args := range benchstatCases {
		cmd := exec.Command(oracle, args...)
		var want, wantErr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &want, &wantErr
		if err := cmd.Run(); err != nil {
			t.Fatalf("benchstat %q: %v\n%s", args, err, wantErr.String())
		}
		if want.Len() == 0 {
			t.Fatalf("benchstat %q printed nothing; the case tests nothing", args)
		}
		got, gotErr, _ := perflabRun(append([]string{"bench", "compare"}, args...)...)
		if got != want.String() {
			t.Errorf("perflab bench compare %q differs from benchstat:\n--- benchstat\n%s--- perflab\n%s", args, want.String(), got)
		}
		// benchstat's messages (syntax errors with file:line, csv
		// warnings) must all be in perflab's.
		for _, line := range strings.Split(strings.TrimSpace(wantErr.String()), "\n") {
			if !strings.Contains(gotErr, line) {
				t.Errorf("perflab bench compare %q: stderr lacks benchstat's %q:\n%s", args, line, gotErr)
			}
		}
	}
}
