package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoRSSSearch runs perflab demo rsssearch for real, briefly: perflab
// serves the service itself, runs naive then tuned under perflab investigate and
// prints both headlines side by side.
func TestDemoRSSSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("loads two servers for seconds")
	}
	bin, dir := perflab(t), filepath.Join(t.TempDir(), "rss")
	stdout, stderr, code := runPerflab(t, bin, "demo", "rsssearch", "-z", "2s", "-o", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stderr, stdout)
	}
	for _, want := range []string{"naive: ", "tuned: ", "bytes allocated per request", "GCs per 1000 requests",
		"biggest allocation finding: ", "strings.ToLower called in rsssearch.rssSearch", "fewer bytes per request"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"naive/report.html", "tuned/report.html", "tuned/cpu.pprof", "naive/allocs-delta.pb.gz"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	_, stderr, code = runPerflab(t, bin, "demo", "rsssearch", "extra")
	if code != 2 || !strings.Contains(stderr, "takes no arguments") {
		t.Errorf("extra argument: exit %d, %q", code, stderr)
	}
}
