package disasm

import (
	"cmp"
	"debug/elf"
	"debug/gosym"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"sync"
)

// The causes Open reports, for errors.Is.
var (
	ErrUnrecognized = errors.New("unrecognized object file (not ELF, Mach-O or PE)")
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
	pcln      *lineTable // the same, read forwards by Decode; nil if not handled
	inlOnce   sync.Once
	inl       *inlineIndex // built on first use by Inlined
}

// a rawBinary is the part of Open that depends on the file format.
type rawBinary struct {
	goarch      string
	syms        []Sym
	symErr      error
	text        []byte
	textStart   uint64
	pclntab     []byte
	loadAddr    uint64
	hasLoad     bool
	buildID     string
	runtimeText uint64 // the runtime.text symbol's address, 0 if none
}

// Open reads the binary at path. Its errors are *BinaryError, wrapping
// one of the Err causes above or the file system's.
func Open(path string) (*Binary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &BinaryError{Path: path, Err: err}
	}
	defer f.Close()
	b, err := read(f)
	if err != nil {
		return nil, &BinaryError{Path: path, Err: err}
	}
	b.Path = path
	return b, nil
}

// read parses an object file from r.
func read(r io.ReaderAt) (b *Binary, err error) {
	defer func() {
		// debug/* parse hostile files without panicking in general, but a
		// malformed file must never crash perflab.
		if e := recover(); e != nil {
			b, err = nil, fmt.Errorf("malformed object file: %v", e)
		}
	}()
	raw, err := readRaw(r)
	if err != nil {
		return nil, err
	}
	if decoders[raw.goarch] == nil {
		return nil, fmt.Errorf("%w %q", ErrArch, raw.goarch)
	}
	if raw.text == nil {
		return nil, ErrNoText
	}
	if len(raw.pclntab) == 0 {
		return nil, ErrNotGo
	}
	if raw.symErr != nil || len(raw.syms) == 0 {
		return nil, ErrStripped
	}
	sortSyms(raw.syms)
	start := raw.textStart
	if raw.runtimeText != 0 {
		start = raw.runtimeText
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(raw.pclntab, start))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotGo, err)
	}
	return &Binary{
		GOARCH: raw.goarch, BuildID: raw.buildID,
		all: raw.syms, syms: lookupSyms(raw.syms), text: raw.text, textStart: raw.textStart,
		loadAddr: raw.loadAddr, hasLoad: raw.hasLoad, lines: tab, pcln: newLineTable(raw.pclntab, start),
	}, nil
}

// readRaw tries each supported format.
func readRaw(r io.ReaderAt) (*rawBinary, error) {
	if f, err := elf.NewFile(r); err == nil {
		return readELF(f)
	}
	if f, err := macho.NewFile(r); err == nil {
		return readMachO(f)
	}
	if f, err := pe.NewFile(r); err == nil {
		return readPE(f)
	}
	return nil, ErrUnrecognized
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

// runtimeTextAddr returns the address of runtime.text among syms, 0 if absent.
func runtimeTextAddr(syms []Sym) uint64 {
	for _, s := range syms {
		if s.Name == "runtime.text" {
			return s.Addr
		}
	}
	return 0
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
// pprof tells a BINARY argument from a profile source.
func IsObjectFile(path string) bool {
	f, err := os.Open(path)
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
