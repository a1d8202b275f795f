package testprog

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// RequireOraclesEnv names the environment variable that, set to 1, turns a
// missing oracle from a skipped test into a failed one. scripts/test sets
// it, since it installs every oracle first.
const RequireOraclesEnv = "PERFLAB_REQUIRE_ORACLES"

// Oracle returns the path of an outside tool that a test compares perflab
// with or drives: "pprof" (the binary go tool pprof runs), "go",
// "benchstat", "hey", "wrk", "chromium", "gcc", "clickhouse-server", or
// any other command on PATH. When the tool is missing the test is skipped, or fails when
// $PERFLAB_REQUIRE_ORACLES is 1.
func Oracle(t testing.TB, name string) string {
	t.Helper()
	path, err := LookOracle(name)
	if err != nil {
		if os.Getenv(RequireOraclesEnv) == "1" {
			t.Fatalf("oracle %s is missing (%s=1): %v", name, RequireOraclesEnv, err)
		}
		t.Skipf("oracle %s is missing (scripts/test installs it): %v", name, err)
	}
	return path
}

var oracles sync.Map // name → oracleResult

type oracleResult struct {
	path string
	err  error
}

// LookOracle finds the tool Oracle names, remembering the answer.
func LookOracle(name string) (string, error) {
	if r, ok := oracles.Load(name); ok {
		return r.(oracleResult).path, r.(oracleResult).err
	}
	var r oracleResult
	switch name {
	case "go":
		r.path, r.err = goCommand()
	case "pprof":
		r.path, r.err = pprofTool()
	case "benchstat":
		r.path, r.err = goInstalled(name)
	case "chromium":
		r.path, r.err = lookFirst("chromium", "chromium-browser")
	case "clickhouse-server":
		// Debian installs it in /usr/sbin, which a user's PATH may lack.
		r.path, r.err = lookFirst("clickhouse-server", "/usr/sbin/clickhouse-server")
	default:
		r.path, r.err = exec.LookPath(name)
	}
	oracles.Store(name, r)
	return r.path, r.err
}

// goCommand returns the go command: the one on PATH, else the toolchain
// that built the test binary.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("no go command on PATH or in GOROOT: %w", err)
	}
	return p, nil
}

// pprofTool returns the binary that go tool pprof runs, so that tests can
// call it without the go command's overhead.
func pprofTool() (string, error) {
	gobin, err := goCommand()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(gobin, "tool", "-n", "pprof").Output()
	if err != nil {
		return "", fmt.Errorf("go tool -n pprof: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// goInstalled finds a command installed by go install: on PATH, else in
// $GOPATH/bin.
func goInstalled(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	gobin, err := goCommand()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(gobin, "env", "GOPATH").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOPATH: %w", err)
	}
	for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
		p := filepath.Join(dir, "bin", name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is neither on PATH nor in $GOPATH/bin", name)
}

// lookFirst returns the first of names found on PATH.
func lookFirst(names ...string) (string, error) {
	var errs []error
	for _, name := range names {
		p, err := exec.LookPath(name)
		if err == nil {
			return p, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}
