package objfile

import (
	"debug/dwarf"
	"encoding/binary"
	"errors"
	"io"
	"strings"
)

// ErrNoSymbols is the error of Symbols for a file without a symbol table.
var ErrNoSymbols = errors.New("no symbol table")

// A Sym is a symbol of the file.
type Sym struct {
	Name string
	Addr uint64 // virtual address
	Size uint64 // Mach-O and PE have none: the distance to the next symbol
}

// GOARCH returns the file's architecture as a GOARCH ("amd64", "arm64",
// ...), or the format's name for it when Go has none.
func (o *File) GOARCH() string {
	switch {
	case o.elf != nil:
		return elfArch(o.elf)
	case o.mach != nil:
		return machoArch(o.mach.Cpu)
	}
	return peArch(o.pe)
}

// Symbols returns the file's symbols, in the file's order, read once.
func (o *File) Symbols() ([]Sym, error) {
	o.symOnce.Do(func() {
		switch {
		case o.elf != nil:
			o.syms, o.symErr = o.elfSymbols()
		case o.mach != nil:
			o.syms, o.symErr = machoSymbols(o.mach)
		default:
			o.syms, o.symErr = peSymbols(o.pe)
		}
	})
	return o.syms, o.symErr
}

// Text returns the text section's address and bytes; data is nil, with
// no error, if the file has no text section.
func (o *File) Text() (addr uint64, data []byte, err error) {
	var sec section
	switch {
	case o.elf != nil:
		s := o.elf.Section(".text")
		if s == nil {
			return 0, nil, nil
		}
		addr, sec = s.Addr, elfSection(s)
	case o.mach != nil:
		s := o.mach.Section("__text")
		if s == nil {
			return 0, nil, nil
		}
		addr, sec = s.Addr, machoSection(s)
	default:
		s := o.pe.Section(".text")
		if s == nil {
			return 0, nil, nil
		}
		base, err := peImageBase(o.pe)
		if err != nil {
			return 0, nil, err
		}
		addr, sec = base+uint64(s.VirtualAddress), peSection(s)
	}
	data, err = o.read(sec, MaxSectionBytes, "a section")
	return addr, data, err
}

// GoLineTable returns the Go line table (pclntab), nil if the file has
// none (not a Go binary), and the address its entries are relative to:
// the runtime.text symbol's, else the text section's.
func (o *File) GoLineTable() (data []byte, textStart uint64, err error) {
	switch {
	case o.elf != nil:
		if s := o.elfGoLineTable(); s != nil {
			data, err = o.read(*s, MaxSectionBytes, "a section")
		}
		if s := o.elf.Section(".text"); s != nil {
			textStart = s.Addr
		}
	case o.mach != nil:
		if s := o.mach.Section("__gopclntab"); s != nil {
			data, err = o.read(machoSection(s), MaxSectionBytes, "a section")
		}
		if s := o.mach.Section("__text"); s != nil {
			textStart = s.Addr
		}
	default:
		data, err = o.peGoLineTable()
		if s := o.pe.Section(".text"); s != nil {
			base, _ := peImageBase(o.pe)
			textStart = base + uint64(s.VirtualAddress)
		}
	}
	if err != nil || data == nil {
		return nil, 0, err
	}
	syms, _ := o.Symbols()
	for _, s := range syms {
		if s.Name == "runtime.text" {
			return data, s.Addr, nil
		}
	}
	return data, textStart, nil
}

// LoadAddress returns the address the file expects its text mapping to
// start at, and whether it knows one: a profile's addresses are moved by
// the mapping's start minus this (position-independent executables).
func (o *File) LoadAddress() (uint64, bool) {
	switch {
	case o.elf != nil:
		return elfLoadAddress(o.elf)
	case o.mach != nil:
		if seg := o.mach.Segment("__TEXT"); seg != nil {
			return seg.Addr, true
		}
		return 0, false
	}
	base, err := peImageBase(o.pe)
	return base, err == nil
}

// BuildID returns the GNU build ID (ELF) in hex, "" if none.
func (o *File) BuildID() string {
	if o.elf == nil {
		return ""
	}
	return o.elfBuildID()
}

// DWARF returns the file's debugging information, after checking the
// size of every DWARF section (and, in relocatable ELF files, of the
// relocations debug/elf applies to them).
func (o *File) DWARF() (*dwarf.Data, error) {
	var secs []section
	switch {
	case o.elf != nil:
		for i, s := range o.elf.Sections {
			if isDWARF(s.Name) || o.elfRelocatesDWARF(i) {
				secs = append(secs, elfSection(s))
			}
		}
	case o.mach != nil:
		for _, s := range o.mach.Sections {
			if isDWARF(s.Name) {
				secs = append(secs, machoSection(s))
			}
		}
	default:
		for _, s := range o.pe.Sections {
			if isDWARF(s.Name) {
				secs = append(secs, peSection(s))
			}
		}
	}
	for _, s := range secs {
		if err := o.take(s, MaxSectionBytes, "a section"); err != nil {
			return nil, err
		}
	}
	switch {
	case o.elf != nil:
		return o.elf.DWARF()
	case o.mach != nil:
		return o.mach.DWARF()
	}
	return o.pe.DWARF()
}

// isDWARF reports whether a section's name is one the debug packages'
// DWARF methods read.
func isDWARF(name string) bool {
	for _, p := range []string{".debug_", ".zdebug_", "__debug_", "__zdebug_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// zlibSize returns what reading a Mach-O or PE section of size bytes
// costs: a DWARF section whose data starts with "ZLIB" and the
// uncompressed size is read, then inflated into a buffer of that size.
func zlibSize(name string, r io.ReaderAt, size uint64) uint64 {
	if !isDWARF(name) {
		return size
	}
	var hdr [12]byte
	if n, _ := r.ReadAt(hdr[:], 0); n == len(hdr) && string(hdr[:4]) == "ZLIB" {
		return size + binary.BigEndian.Uint64(hdr[4:])
	}
	return size
}
