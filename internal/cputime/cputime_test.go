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
	// Spin until Self has grown by 20ms, for at most 5 s of wall-clock
	// time: a loaded machine may give the loop a small share of a core.
	start := Self()
	deadline := time.Now().Add(5 * time.Second)
	for Self()-start < 20*time.Millisecond && time.Now().Before(deadline) {
	}
	if d := Self() - start; d < 20*time.Millisecond {
		t.Fatalf("5 s of busy loop used %v of CPU", d)
	}
}
