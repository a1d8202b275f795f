package main

import (
	"testing"
	"time"
)

func TestCountdownText(t *testing.T) {
	const u = "http://h/debug/pprof/profile?seconds=30"
	tests := []struct {
		seconds int
		elapsed time.Duration
		want    string
	}{
		{30, 0, "Fetching " + u + ": collecting, 30s left"},
		{30, 12500 * time.Millisecond, "Fetching " + u + ": collecting, 18s left"},
		{30, 31 * time.Second, "Fetching " + u + ": collected, waiting for the server"},
		{0, 3 * time.Second, "Fetching " + u + " ... 3s"},
	}
	for _, tt := range tests {
		if got := countdownText(u, tt.seconds, tt.elapsed); got != tt.want {
			t.Errorf("countdownText(%d, %v) = %q; want %q", tt.seconds, tt.elapsed, got, tt.want)
		}
	}
}
