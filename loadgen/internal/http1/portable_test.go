package http1

import (
	"os"
	"os/exec"
	"testing"
)

// TestPortable vets package loadgen and its internals for an OS without
// the raw system-call fast path and for one whose system calls go through
// libc: the fast path must sit behind its build tag, with the fallback
// beside it.
func TestPortable(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-vets the package (seconds)")
	}
	for _, goos := range []string{"windows", "darwin"} {
		cmd := exec.Command("go", "vet", "github.com/perflab/perflab/loadgen/...")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("GOOS=%s go vet ./loadgen/...: %v\n%s", goos, err, out)
		}
	}
}
