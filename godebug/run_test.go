package godebug

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

// envProg prints its GODEBUG, writes to standard error, forces two GCs and
// exits with status 7.
const envProg = `package main

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

func main() {
	fmt.Println("GODEBUG=" + os.Getenv("GODEBUG"))
	fmt.Fprintln(os.Stderr, "program line 1")
	runtime.GC()
	fmt.Fprintln(os.Stderr, "program line 2")
	runtime.GC()
	time.Sleep(200 * time.Millisecond) // let the runtime finish printing
	os.Exit(7)
}
`

// runScanned runs prog with gctrace=1 merged into GODEBUG and scans its
// standard error with ScanStderr.
func runScanned(t *testing.T, prog string, stdout, stderr io.Writer, passTrace bool, handle func(Record)) {
	cmd := exec.Command(prog)
	cmd.Env = MergeGODEBUG(os.Environ(), "gctrace=1")
	cmd.Stdout = stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := ScanStderr(pipe, stderr, passTrace, handle); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("program ended with %v; want exit status 7", err)
	}
}

func TestScanStderr(t *testing.T) {
	prog := testprog.BuildSource(t, envProg)
	t.Setenv("GODEBUG", "madvdontneed=1,gctrace=0")
	var stdout, stderr strings.Builder
	var gcs []*GC
	runScanned(t, prog, &stdout, &stderr, false, func(r Record) {
		if g, ok := r.(*GC); ok {
			gcs = append(gcs, g)
		}
	})
	if got := strings.TrimSpace(stdout.String()); got != "GODEBUG=madvdontneed=1,gctrace=1" {
		t.Errorf("program saw %q", got)
	}
	if stderr.String() != "program line 1\nprogram line 2\n" {
		t.Errorf("standard error passed through as %q", stderr.String())
	}
	if len(gcs) < 2 || !gcs[len(gcs)-1].Forced {
		t.Errorf("handled %d GC records, want at least 2, the last forced", len(gcs))
	}

	stderr.Reset()
	runScanned(t, prog, io.Discard, &stderr, true, nil)
	if !strings.Contains(stderr.String(), "(forced)") {
		t.Errorf("PassTrace: trace lines not passed through: %q", stderr.String())
	}
}
