//go:build unix

package disasm_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

// TestLocateHostileCandidates: the candidates along $PPROF_BINARY_PATH
// for a profile's mapping are a FIFO and a compression bomb: Locate skips
// both at once, without waiting for a writer or inflating anything (issue
// 24.5, 24.6).
func TestLocateHostileCandidates(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "server"), 0o600); err != nil {
		t.Skip(err)
	}
	debug := filepath.Join(dir, "usr", "lib", "debug", "srv")
	if err := os.MkdirAll(debug, 0o777); err != nil {
		t.Fatal(err)
	}
	bomb := objfiletest.Section{Name: ".text", Data: objfiletest.ELFCompressed(3<<30, objfiletest.Zeros(64<<20)), Compressed: true}
	if err := objfiletest.WriteELF(filepath.Join(debug, "server.debug"), []objfiletest.Section{bomb}); err != nil {
		t.Fatal(err)
	}
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x500000, File: "/srv/server"}
	p := &profile.Profile{Mapping: []*profile.Mapping{m}}
	done := make(chan uint64, 1)
	go func() {
		done <- objfiletest.Allocated(func() { disasm.Locate(p, "", dir, &disasm.Cache{}) })
	}()
	select {
	case n := <-done:
		if m.File != "/srv/server" || n > 16<<20 {
			t.Errorf("Locate chose %s after allocating %d MiB; want neither candidate, nothing inflated", m.File, n>>20)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Locate still waiting after 20 s")
	}
}
