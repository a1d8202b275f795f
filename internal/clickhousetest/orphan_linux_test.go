package clickhousetest

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// TestNoOrphan runs a test binary that starts a server and dies without
// cleaning up; the server must die with it.
func TestNoOrphan(t *testing.T) {
	testprog.Oracle(t, OracleName)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanEnv+"=1")
	out, err := cmd.Output()
	var pid int
	var dir string
	if _, serr := fmt.Sscan(string(out), &pid, &dir); serr != nil {
		t.Fatalf("child: %v, output %q", err, out)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	deadline := time.Now().Add(10 * time.Second)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("server %d outlived the test binary that started it", pid)
	}
}

// alive reports whether process pid runs (and is not a zombie).
func alive(pid int) bool {
	if pid == 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(b), ") Z ")
}
