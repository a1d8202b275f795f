package profiles_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
	"github.com/perflab/perflab/profiles"
)

// TestSymbolizeBomb: a profile whose mapping file has a compressed
// .debug_info declaring 3 GiB loads unsymbolized, without inflating it
// (issue 24.6: symbolization reads the DWARF of mappings without a Go
// line table).
func TestSymbolizeBomb(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bomb")
	err := objfiletest.WriteELF(bin, []objfiletest.Section{
		{Name: ".text", Data: []byte{0xc3}, Addr: 0x401000},
		{Name: ".debug_info", Data: objfiletest.ELFCompressed(3<<30, objfiletest.Zeros(64<<20)), Compressed: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x402000, File: bin}
	loc := &profile.Location{ID: 1, Address: 0x401000, Mapping: m}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Mapping:    []*profile.Mapping{m},
		Location:   []*profile.Location{loc},
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1}}},
	}
	path := filepath.Join(dir, "p.pprof")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var got *profile.Profile
	n := objfiletest.Allocated(func() { got, err = profiles.Load(context.Background(), []string{path}, profiles.Options{}) })
	if err != nil || n > 16<<20 || len(got.Location[0].Line) != 0 {
		t.Errorf("Load: %v after allocating %d MiB; want the profile, unsymbolized, nothing inflated", err, n>>20)
	}
}
