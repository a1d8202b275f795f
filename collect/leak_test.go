package collect_test

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGoroutineLeakKind builds the test program with the Go 1.26 runtime's
// leak detector (GOEXPERIMENT=goroutineleakprofile): there the kind
// goroutineleak exists, and a session writes its profile.
func TestGoroutineLeakKind(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library with an experiment")
	}
	bin := filepath.Join(t.TempDir(), "collectprog")
	cmd := exec.Command("go", "build", "-o", bin, progPkg)
	cmd.Env = append(cleanEnv(), "GOEXPERIMENT=goroutineleakprofile")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("this toolchain has no goroutineleakprofile experiment: %v\n%s", err, out)
	}
	dir := t.TempDir()
	_, stderr, err := run(t, bin, nil, "-kinds", "goroutine,goroutineleak", "-dir", dir)
	if err != nil {
		t.Fatalf("collectprog: %v\n%s", err, stderr)
	}
	p := load(t, filepath.Join(dir, "goroutineleak.pprof"))
	if len(p.SampleType) == 0 || p.SampleType[0].Type != "goroutineleak" {
		t.Errorf("goroutineleak.pprof holds %v", p.SampleType)
	}
}
