package disasm_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

// TestOpenBombs: binaries whose .text, .gopclntab or .symtab is
// compressed and declares 3 GiB (inflating to 64 MiB of zeros), or whose
// .text is a 1 GiB hole of a sparse file, are refused by the sizes they
// declare, before anything is inflated or read: one error naming the
// binary, the section and the limit (issue 24.6; disasm reached 9.8 GB).
func TestOpenBombs(t *testing.T) {
	dir := t.TempDir()
	z := objfiletest.Zeros(64 << 20)
	bomb := func(name string) objfiletest.Section {
		return objfiletest.Section{Name: name, Data: objfiletest.ELFCompressed(3<<30, z), Compressed: true}
	}
	text := objfiletest.Section{Name: ".text", Data: []byte{0xc3}, Addr: 0x401000}
	pcln := objfiletest.Section{Name: ".gopclntab", Data: make([]byte, 64)}
	symtab := bomb(".symtab")
	symtab.Type, symtab.Link = 2, 4
	files := map[string][]objfiletest.Section{
		".text":       {bomb(".text")},
		".gopclntab":  {text, bomb(".gopclntab")},
		".symtab":     {text, pcln, symtab, {Name: ".strtab", Type: 3, Data: []byte{0}}},
		"sparse text": {{Name: ".text", Sparse: 1 << 30, Addr: 0x401000}},
	}
	for name, secs := range files {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := objfiletest.WriteELF(path, secs); err != nil {
			t.Fatal(err)
		}
		var err error
		n := objfiletest.Allocated(func() { _, err = disasm.Open(path) })
		section := strings.TrimPrefix(name, "sparse ")
		if section == "text" {
			section = ".text"
		}
		if err == nil || !strings.HasPrefix(err.Error(), "binary "+path+": "+section+": ") || !strings.Contains(err.Error(), "the limit for") || n > 16<<20 {
			t.Errorf("%s: %v after allocating %d MiB; want one line naming the section and its limit, nothing read", name, err, n>>20)
		}
	}
}
