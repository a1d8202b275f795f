package goroutines_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

// TestParamsFromBinaryBombs: a binary whose DWARF section is compressed
// and declares 3 GiB (ELF's SHF_COMPRESSED; the "ZLIB" header of Mach-O
// and PE, which debug/macho and debug/pe allocate at once) is refused
// before inflating (issue 24.6).
func TestParamsFromBinaryBombs(t *testing.T) {
	dir := t.TempDir()
	z := objfiletest.Zeros(64 << 20)
	const declared = 3 << 30
	files := []struct {
		name  string
		write func(string, []objfiletest.Section) error
		sec   objfiletest.Section
	}{
		{"elf", objfiletest.WriteELF, objfiletest.Section{Name: ".debug_info", Data: objfiletest.ELFCompressed(declared, z), Compressed: true}},
		{"elf-zdebug", objfiletest.WriteELF, objfiletest.Section{Name: ".zdebug_info", Data: objfiletest.ZLIB(declared, z)}},
		{"macho", objfiletest.WriteMachO, objfiletest.Section{Name: "__debug_info", Data: objfiletest.ZLIB(declared, z)}},
		{"pe", objfiletest.WritePE, objfiletest.Section{Name: ".debug_info", Data: objfiletest.ZLIB(declared, z)}},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := f.write(path, []objfiletest.Section{f.sec}); err != nil {
			t.Fatal(err)
		}
		var err error
		n := objfiletest.Allocated(func() { _, err = goroutines.ParamsFromBinary(path, "main.main") })
		if err == nil || !strings.Contains(err.Error(), f.sec.Name+": ") || !strings.Contains(err.Error(), "the limit for") || n > 16<<20 {
			t.Errorf("%s: %v after allocating %d MiB; want the section refused, nothing inflated", f.name, err, n>>20)
		}
	}
}
