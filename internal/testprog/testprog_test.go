package testprog

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestBuildSourceRunsTheProgram(t *testing.T) {
	bin := BuildSource(t, `package main

import "fmt"

func main() { fmt.Println(6 * 7) }
`)
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "42\n" {
		t.Fatalf("program printed %q, want %q", out, "42\n")
	}
}

// TestBuildFiles builds a program of two files and checks the caller's
// map is left as it was given.
func TestBuildFiles(t *testing.T) {
	files := map[string]string{
		"main.go":   "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(answer()) }\n",
		"answer.go": "package main\n\nfunc answer() int { return 42 }\n",
	}
	out, err := exec.Command(Build(t, files)).Output()
	if err != nil || string(out) != "42\n" {
		t.Fatalf("program printed %q, %v; want %q", out, err, "42\n")
	}
	if _, ok := files["go.mod"]; ok || len(files) != 2 {
		t.Errorf("Build changed the caller's files: %q", files)
	}
}

// TestOracleMissing runs this test binary on a test that asks for a tool
// that does not exist: skipped by default, failed under
// PERFLAB_REQUIRE_ORACLES=1.
func TestOracleMissing(t *testing.T) {
	if os.Getenv("TESTPROG_ASK_MISSING") == "1" {
		Oracle(t, "perflab-no-such-oracle")
		t.Fatal("Oracle returned for a missing tool")
	}
	for _, tt := range []struct {
		require string
		fail    bool
		has     string
	}{
		{"", false, "--- SKIP"},
		{"0", false, "--- SKIP"},
		{"1", true, "--- FAIL"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOracleMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTPROG_ASK_MISSING=1", RequireOraclesEnv+"="+tt.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != tt.fail || !strings.Contains(string(out), tt.has) || !strings.Contains(string(out), "perflab-no-such-oracle") {
			t.Errorf("%s=%q: err %v, output:\n%s\nwant failure %v and %q", RequireOraclesEnv, tt.require, err, out, tt.fail, tt.has)
		}
	}
}

func TestOracleFindsGo(t *testing.T) {
	for _, name := range []string{"go", "pprof"} {
		p := Oracle(t, name)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("Oracle(%q) = %q: %v", name, p, err)
		}
	}
}
