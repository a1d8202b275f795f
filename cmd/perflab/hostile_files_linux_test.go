package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

// TestListShowsNoProcFiles: a profile whose source file is perflab's own
// /proc/self/environ or cmdline (directly or through a symbolic link)
// must not make list print the token perflab got by environment or flag
// (issue 24.3).
func TestListShowsNoProcFiles(t *testing.T) {
	bin := perflab(t)
	dir := t.TempDir()
	link := filepath.Join(dir, "main.go")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"/proc/self/environ", "/proc/self/cmdline", link} {
		prof := filepath.Join(t.TempDir(), "p.pprof")
		reporttest.WriteProfile(t, reporttest.OneSample(file), prof)
		cmd := exec.Command(bin, "list", "-token=flag-s3cret", "main.main", prof)
		cmd.Env = append(os.Environ(), "PERFLAB_TOKEN=env-s3cret")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "s3cret") || !strings.Contains(string(out), "under /proc, /sys or /dev") {
			t.Errorf("perflab list of a function in %s: %v\n%s\nwant no token, an Error line refusing the file", file, err, out)
		}
	}
}
