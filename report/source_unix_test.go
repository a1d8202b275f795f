//go:build unix

package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
)

// listWithin runs list on p, failing the test if it takes more than 10 s.
func listWithin(t *testing.T, p *profile.Profile) string {
	t.Helper()
	var out bytes.Buffer
	done := make(chan error, 1)
	o := DefaultOptions()
	o.Symbol = "main.main"
	go func() { done <- Generate(&out, p, List, o) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("list still reading its source after 10 s")
	}
	return out.String()
}

// TestListRefusesHostileSources lists functions whose source file is a
// FIFO (opening it used to block for ever), /dev/urandom (read until out
// of memory), a file beyond MaxSourceBytes, a directory, and files that
// would show perflab's own environment and command line (issue 24.3):
// each is one " Error:" line, as pprof prints for a file it cannot open,
// and list goes on.
func TestListRefusesHostileSources(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	big := filepath.Join(dir, "big.go")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxSourceBytes+1); err != nil { // sparse: no disk taken
		t.Fatal(err)
	}
	link := filepath.Join(dir, "environ.go")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	const system = ": under /proc, /sys or /dev: never read for input\n"
	tests := []struct{ file, want string }{
		{fifo, " Error: open " + fifo + ": not a regular file\n"},
		{"/dev/urandom", " Error: open /dev/urandom" + system},
		{big, " Error: read " + big + ": larger than 64 MiB, the limit for a source file\n"},
		{dir, " Error: open " + dir + ": not a regular file\n"},
		{"/proc/self/environ", " Error: open /proc/self/environ" + system},
		{"/proc/self/cmdline", " Error: open /proc/self/cmdline" + system},
		{link, " Error: open " + link + system},
		{"/sys/kernel/mm/transparent_hugepage/enabled", " Error: open /sys/kernel/mm/transparent_hugepage/enabled" + system},
	}
	for _, tt := range tests {
		got := listWithin(t, reporttest.OneSample(tt.file))
		want := "ROUTINE ======================== main.main in " + tt.file + "\n"
		if !strings.Contains(got, want) || !strings.HasSuffix(got, tt.want) {
			t.Errorf("list of a function in %s:\n%s\nwant %q then %q", tt.file, got, want, tt.want)
		}
	}
}
