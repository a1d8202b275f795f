package disasm

import (
	"cmp"
	"debug/gosym"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/perflab/perflab/internal/namedfile"
	"github.com/perflab/perflab/internal/objfile"
)

// The causes Open reports, for errors.Is.
var (
	ErrUnrecognized = objfile.ErrUnrecognized
	ErrStripped     = errors.New("no symbol table (stripped binary?)")
	ErrNotGo        = errors.New("not a Go binary (no Go line table)")
	ErrArch         = errors.New("unsupported architecture")
	ErrNoText       = errors.New("no text section")
)

// A Sym is a function symbol of a binary.
type Sym struct {
	Name string
	Addr uint64 // virtual address of the first byte
	Size uint64
}

// A Binary is an executable opened for disassembly: its text, function
// symbols and Go line table, read once.
type Binary struct {
	Path    string
	GOARCH  string // amd64 or arm64
	BuildID string // the GNU build ID in hex (ELF), "" if none

	all       []Sym // every symbol, sorted by address
	syms      []Sym // all without the section markers, for lookup
	text      []byte
	textStart uint64
	loadAddr  uint64
	hasLoad   bool
	lines     *gosym.Table
	pcln      *lineTable                          // the same, read forwards by Decode; nil if not handled
	open      func(string) (*objfile.File, error) // how Path was opened, to reopen it for DWARF
	inlOnce   sync.Once
	inl       *inlineIndex // built on first use by Inlined
}

// Open reads the binary at path, which a profile named (a mapping's file,
// or a candidate along $PPROF_BINARY_PATH): as package objfile reads
// every such file, never under /proc, /sys or /dev, without blocking, and
// within its bounds on section sizes. Its errors are *BinaryError,
// wrapping one of the Err causes above, objfile.ErrTooLarge or the file
// system's.
func Open(path string) (*Binary, error) {
	return open(path, objfile.Open)
}

// OpenArg is Open for the binary the user named (pprof's BINARY
// argument), which may be under /proc: /proc/PID/exe is the way to a
// running program's binary once a new one replaced it.
func OpenArg(path string) (*Binary, error) {
	return open(path, objfile.OpenArg)
}

func open(path string, opener func(string) (*objfile.File, error)) (*Binary, error) {
	f, err := opener(path)
	if err != nil {
		return nil, &BinaryError{Path: path, Err: err}
	}
	defer f.Close()
	b, err := read(f)
	if err != nil {
		return nil, &BinaryError{Path: path, Err: err}
	}
	b.Path, b.open = path, opener
	return b, nil
}

// read reads what disassembly needs from f.
func read(f *objfile.File) (b *Binary, err error) {
	defer func() {
		// debug/* parse hostile files without panicking in general, but a
		// malformed file must never crash perflab.
		if e := recover(); e != nil {
			b, err = nil, fmt.Errorf("malformed object file: %v", e)
		}
	}()
	b = &Binary{GOARCH: f.GOARCH(), BuildID: f.BuildID()}
	if decoders[b.GOARCH] == nil {
		return nil, fmt.Errorf("%w %q", ErrArch, b.GOARCH)
	}
	if b.textStart, b.text, err = f.Text(); err != nil {
		return nil, err
	}
	if b.text == nil {
		return nil, ErrNoText
	}
	pclntab, start, err := f.GoLineTable()
	if err != nil {
		return nil, err
	}
	if len(pclntab) == 0 {
		return nil, ErrNotGo
	}
	osyms, err := f.Symbols()
	if errors.Is(err, objfile.ErrTooLarge) {
		return nil, err
	}
	if err != nil || len(osyms) == 0 {
		return nil, ErrStripped
	}
	b.all = make([]Sym, len(osyms))
	for i, s := range osyms {
		b.all[i] = Sym(s)
	}
	sortSyms(b.all)
	b.syms = lookupSyms(b.all)
	if b.lines, err = objfile.GoTable(pclntab, start); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGo, err)
	}
	b.pcln = newLineTable(pclntab, start)
	b.loadAddr, b.hasLoad = f.LoadAddress()
	return b, nil
}

// sortSyms sorts symbols by address exactly as the go tool does (the same
// unstable sort on the same input), so that symbols sharing an address
// resolve to the same name.
func sortSyms(syms []Sym) {
	slices.SortFunc(syms, func(a, b Sym) int { return cmp.Compare(a.Addr, b.Addr) })
}

// lookupSyms drops the section markers the go tool's disassembler ignores.
func lookupSyms(sorted []Sym) []Sym {
	var out []Sym
	for _, s := range sorted {
		switch s.Name {
		case "runtime.text", "text", "_text", "runtime.etext", "etext", "_etext":
			continue
		}
		out = append(out, s)
	}
	return out
}

// Symbols returns the symbols whose names match (all if match is nil), in
// address order, without those of address and size 0 (ELF file symbols).
func (b *Binary) Symbols(match func(name string) bool) []Sym {
	var out []Sym
	for _, s := range b.all {
		if s.Addr == 0 && s.Size == 0 {
			continue
		}
		if match == nil || match(s.Name) {
			out = append(out, s)
		}
	}
	return out
}

// LoadAddress returns the address the binary expects its text mapping to
// start at, and whether it knows one; a profile's addresses are moved by
// the mapping's start minus this (position-independent executables).
func (b *Binary) LoadAddress() (uint64, bool) { return b.loadAddr, b.hasLoad }

// lookup names the symbol that contains addr, for the disassemblers'
// symbolic operands.
func (b *Binary) lookup(addr uint64) (string, uint64) {
	i := sort.Search(len(b.syms), func(i int) bool { return addr < b.syms[i].Addr })
	if i > 0 {
		s := b.syms[i-1]
		if s.Addr != 0 && s.Addr <= addr && addr < s.Addr+s.Size {
			return s.Name, s.Addr
		}
	}
	return "", 0
}

// Line returns the file, line and function of the code at pc, from the Go
// line table; "" when unknown.
func (b *Binary) Line(pc uint64) (file string, line int, fn string) {
	file, line, f := b.lines.PCToLine(pc)
	if f != nil {
		fn = f.Name
	}
	return file, line, fn
}

// IsObjectFile reports whether path is an ELF, Mach-O or PE file: how
// pprof tells a BINARY argument from a profile source. Only a regular
// file can be one; a FIFO is not opened for reading (that would wait for
// a writer).
func IsObjectFile(path string) bool {
	f, _, err := namedfile.OpenArg(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	if _, err := f.ReadAt(magic[:], 0); err != nil {
		return false
	}
	switch {
	case string(magic[:]) == "\x7fELF":
		return true
	case magic[0] == 'M' && magic[1] == 'Z':
		return true
	}
	m := uint32(magic[0]) | uint32(magic[1])<<8 | uint32(magic[2])<<16 | uint32(magic[3])<<24
	switch m {
	case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe:
		return true
	}
	return false
}
