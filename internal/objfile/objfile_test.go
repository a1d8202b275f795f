package objfile_test

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/objfile"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

// inflated is how much the bombs below really inflate to: far more than
// the allocation bound the tests check, far less than they declare.
const inflated = 64 << 20

// bombs are object files whose one hostile section declares 3 GiB
// (holding inflated bytes of zeros, compressed), or is a 1 GiB hole in a
// sparse file; read is the method that reads that section.
func bombs(t *testing.T) []struct {
	name, path string
	read       func(*objfile.File) error
} {
	dir := t.TempDir()
	z := objfiletest.Zeros(inflated)
	const declared = 3 << 30
	text := objfiletest.Section{Name: ".text", Data: []byte{0xc3}, Addr: 0x401000}
	pcln := objfiletest.Section{Name: ".gopclntab", Data: make([]byte, 64)}
	bomb := func(name string) objfiletest.Section {
		return objfiletest.Section{Name: name, Data: objfiletest.ELFCompressed(declared, z), Compressed: true}
	}
	readText := func(f *objfile.File) error { _, _, err := f.Text(); return err }
	readPcln := func(f *objfile.File) error { _, _, err := f.GoLineTable(); return err }
	readSyms := func(f *objfile.File) error { _, err := f.Symbols(); return err }
	readDWARF := func(f *objfile.File) error { _, err := f.DWARF(); return err }
	symtab := bomb(".symtab")
	symtab.Type, symtab.Link = 2, 4 // SHT_SYMTAB, linked to .strtab (section 4)
	var debug []objfiletest.Section
	for _, n := range []string{".debug_abbrev", ".debug_info", ".debug_line", ".debug_str", ".debug_ranges"} {
		debug = append(debug, objfiletest.Section{Name: n, Data: objfiletest.ELFCompressed(250<<20, z), Compressed: true})
	}
	cases := []struct {
		name string
		secs []objfiletest.Section
		read func(*objfile.File) error
		w    func(string, []objfiletest.Section) error
	}{
		{"elf-text", []objfiletest.Section{bomb(".text")}, readText, objfiletest.WriteELF},
		{"elf-gopclntab", []objfiletest.Section{text, bomb(".gopclntab")}, readPcln, objfiletest.WriteELF},
		{"elf-symtab", []objfiletest.Section{text, pcln, symtab, {Name: ".strtab", Type: 3, Data: []byte{0}}}, readSyms, objfiletest.WriteELF},
		{"elf-debug_info", []objfiletest.Section{text, bomb(".debug_info")}, readDWARF, objfiletest.WriteELF},
		{"elf-zdebug_info", []objfiletest.Section{text, {Name: ".zdebug_info", Data: objfiletest.ZLIB(declared, z)}}, readDWARF, objfiletest.WriteELF},
		{"elf-sparse-text", []objfiletest.Section{{Name: ".text", Sparse: 1 << 30, Addr: 0x401000}}, readText, objfiletest.WriteELF},
		{"elf-all-debug", append([]objfiletest.Section{text}, debug...), readDWARF, objfiletest.WriteELF},
		{"macho-debug_info", []objfiletest.Section{{Name: "__debug_info", Data: objfiletest.ZLIB(declared, z)}}, readDWARF, objfiletest.WriteMachO},
		{"pe-debug_info", []objfiletest.Section{{Name: ".debug_info", Data: objfiletest.ZLIB(declared, z)}}, readDWARF, objfiletest.WritePE},
	}
	var out []struct {
		name, path string
		read       func(*objfile.File) error
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := c.w(path, c.secs); err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name, path string
			read       func(*objfile.File) error
		}{c.name, path, c.read})
	}
	return out
}

// TestBombs: each hostile section is refused by its declared size,
// before anything is inflated or read (issue 24.6).
func TestBombs(t *testing.T) {
	for _, b := range bombs(t) {
		var err error
		n := objfiletest.Allocated(func() {
			f, oerr := objfile.Open(b.path)
			if oerr != nil {
				err = oerr
				return
			}
			defer f.Close()
			err = b.read(f)
		})
		if !errors.Is(err, objfile.ErrTooLarge) || !strings.Contains(err.Error(), "the limit for") || n > 16<<20 {
			t.Errorf("%s: %v after allocating %d MiB; want ErrTooLarge before reading", b.name, err, n>>20)
		}
	}
}

// TestWithinBounds: the generated files are read when their sections are
// within the bounds, so that TestBombs tests the bounds and not the
// generator.
func TestWithinBounds(t *testing.T) {
	dir := t.TempDir()
	code := []byte{0x90, 0x90, 0xc3}
	z := objfiletest.Zeros(1 << 20)
	files := []struct {
		name string
		w    func(string, []objfiletest.Section) error
		secs []objfiletest.Section
	}{
		{"elf", objfiletest.WriteELF, []objfiletest.Section{
			{Name: ".text", Data: code, Addr: 0x401000},
			{Name: ".debug_info", Data: objfiletest.ELFCompressed(1<<20, z), Compressed: true},
		}},
		{"macho", objfiletest.WriteMachO, []objfiletest.Section{{Name: "__debug_info", Data: objfiletest.ZLIB(1<<20, z)}}},
		{"pe", objfiletest.WritePE, []objfiletest.Section{{Name: ".debug_info", Data: objfiletest.ZLIB(1<<20, z)}}},
	}
	for _, c := range files {
		path := filepath.Join(dir, c.name)
		if err := c.w(path, c.secs); err != nil {
			t.Fatal(err)
		}
		f, err := objfile.Open(path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.Format() != c.name || f.GOARCH() != "amd64" {
			t.Errorf("%s: format %s, GOARCH %s", c.name, f.Format(), f.GOARCH())
		}
		if c.name == "elf" {
			if addr, data, err := f.Text(); err != nil || addr != 0x401000 || string(data) != string(code) {
				t.Errorf("elf: Text() = %#x, %x, %v", addr, data, err)
			}
		}
		// A megabyte of zeros is no DWARF, but it is read: the error is
		// debug/dwarf's, not a bound's.
		if _, err := f.DWARF(); err == nil || errors.Is(err, objfile.ErrTooLarge) {
			t.Errorf("%s: DWARF() = %v, want debug/dwarf's error", c.name, err)
		}
		f.Close()
	}
}

// TestOpenRefuses: what input names is opened as package namedfile
// opens it; OpenArg, for the user's binary, allows /proc.
func TestOpenRefuses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc/self/exe")
	}
	if _, err := objfile.Open("/proc/self/exe"); err == nil || !strings.Contains(err.Error(), "under /proc") {
		t.Errorf("Open(/proc/self/exe) = %v, want it refused", err)
	}
	f, err := objfile.OpenArg("/proc/self/exe")
	if err != nil {
		t.Fatalf("OpenArg(/proc/self/exe): %v", err)
	}
	defer f.Close()
	if _, _, err := f.Text(); err != nil {
		t.Errorf("the test binary's text: %v", err)
	}
}
