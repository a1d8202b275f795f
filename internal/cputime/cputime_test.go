package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestSelfGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no rusage")
	}
	start := Self()
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	if d := Self() - start; d < 10*time.Millisecond {
		t.Fatalf("50ms of busy loop used %v of CPU", d)
	}
}
