package godebug

import (
	"context"
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

func TestCommandRun(t *testing.T) {
	prog := testprog.BuildSource(t, envProg)
	t.Setenv("GODEBUG", "madvdontneed=1,gctrace=0")
	var stdout, stderr strings.Builder
	var gcs []*GC
	c := &Command{
		Path: prog, Settings: []string{"gctrace=1"},
		Stdout: &stdout, Stderr: &stderr,
		Handle: func(r Record) {
			if g, ok := r.(*GC); ok {
				gcs = append(gcs, g)
			}
		},
	}
	status, elapsed, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if status != 7 || elapsed <= 0 {
		t.Errorf("status %d, elapsed %v; want 7 and > 0", status, elapsed)
	}
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
	c.PassTrace = true
	if _, _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "(forced)") {
		t.Errorf("PassTrace: trace lines not passed through: %q", stderr.String())
	}
}
