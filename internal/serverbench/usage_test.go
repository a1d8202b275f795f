package serverbench

import (
	"testing"
	"time"
)

// TestParseProc reads a process's figures from /proc files as Linux
// writes them, a command with spaces and parentheses included, and
// refuses damaged ones.
func TestParseProc(t *testing.T) {
	stat := "4242 (perflab (x) y) S 1 4242 4242 0 -1 4194560 2937 0 0 0 1234 56 0 0 20 0 7 0 100 1000000 500 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
	cpu, err := parseStat([]byte(stat))
	if err != nil || cpu != 12900*time.Millisecond {
		t.Errorf("parseStat: %v, %v; want 12.9s (1,234 + 56 ticks)", cpu, err)
	}
	status := "Name:\tperflab\nVmPeak:\t 1000 kB\nVmHWM:\t  81234 kB\nVmRSS:\t   70000 kB\nThreads:\t7\n"
	rss, peak, err := parseStatus([]byte(status))
	if err != nil || rss != 70000<<10 || peak != 81234<<10 {
		t.Errorf("parseStatus: %d, %d, %v; want %d, %d", rss, peak, err, 70000<<10, 81234<<10)
	}
	for _, bad := range []string{"", "4242 perflab S 1", "4242 (perflab) S 1 2 3", "4242 (p) S 1 4242 4242 0 -1 4194560 2937 0 0 0 x 56 0"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
	for _, bad := range []string{"", "VmRSS:\t12 kB\n", "VmHWM:\tmany kB\n"} {
		if _, _, err := parseStatus([]byte(bad)); err == nil {
			t.Errorf("parseStatus(%q): no error", bad)
		}
	}
}

// FuzzParseProc checks that no /proc file, however damaged, makes the
// parsers panic or return a negative figure.
func FuzzParseProc(f *testing.F) {
	f.Add([]byte("1 (a) S 1 1 1 0 -1 0 0 0 0 0 10 20 0 0 20 0 1 0\n"), []byte("VmHWM:\t10 kB\nVmRSS:\t5 kB\n"))
	f.Fuzz(func(t *testing.T, stat, status []byte) {
		if cpu, err := parseStat(stat); err == nil && cpu < 0 {
			t.Errorf("parseStat: %v", cpu)
		}
		if rss, peak, err := parseStatus(status); err == nil && (rss < 0 || peak <= 0) {
			t.Errorf("parseStatus: %d, %d", rss, peak)
		}
	})
}
