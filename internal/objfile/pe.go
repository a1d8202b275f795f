package objfile

import (
	"debug/pe"
	"errors"
	"fmt"
	"sort"
)

// peSection describes s (see machoSection for DWARF's ZLIB header).
func peSection(s *pe.Section) section {
	return section{name: s.Name, size: zlibSize(s.Name, s, uint64(s.Size)), data: s.Data}
}

// peArch maps the PE machine to a GOARCH.
func peArch(f *pe.File) string {
	switch f.Machine {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		return "amd64"
	case pe.IMAGE_FILE_MACHINE_ARM64:
		return "arm64"
	}
	return fmt.Sprintf("pe-machine-%#x", f.Machine)
}

// peImageBase is the address the image is linked at.
func peImageBase(f *pe.File) (uint64, error) {
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader32:
		return uint64(oh.ImageBase), nil
	case *pe.OptionalHeader64:
		return oh.ImageBase, nil
	}
	return 0, errors.New("PE file without optional header")
}

// peSymbols lists the symbols at their virtual addresses; PE has no
// sizes, so each extends to the next address.
func peSymbols(f *pe.File) ([]Sym, error) {
	base, err := peImageBase(f)
	if err != nil {
		return nil, err
	}
	var syms []Sym
	var addrs []uint64
	for _, s := range f.Symbols {
		sym := Sym{Name: s.Name, Addr: uint64(s.Value)}
		if s.SectionNumber > 0 {
			if int(s.SectionNumber) > len(f.Sections) {
				return nil, errors.New("invalid section number in symbol table")
			}
			sym.Addr += base + uint64(f.Sections[s.SectionNumber-1].VirtualAddress)
		}
		syms = append(syms, sym)
		addrs = append(addrs, sym.Addr)
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	for i := range syms {
		j := sort.Search(len(addrs), func(x int) bool { return addrs[x] > syms[i].Addr })
		if j < len(addrs) {
			syms[i].Size = addrs[j] - syms[i].Addr
		}
	}
	return syms, nil
}

// peGoLineTable returns the bytes between runtime.pclntab and
// runtime.epclntab, nil if they are missing.
func (o *File) peGoLineTable() ([]byte, error) {
	f := o.pe
	find := func(name string) *pe.Symbol {
		for _, s := range f.Symbols {
			if s.Name == name && s.SectionNumber > 0 && int(s.SectionNumber) <= len(f.Sections) {
				return s
			}
		}
		return nil
	}
	s, e := find("runtime.pclntab"), find("runtime.epclntab")
	if s == nil || e == nil || s.SectionNumber != e.SectionNumber || e.Value < s.Value {
		return nil, nil
	}
	data, err := o.read(peSection(f.Sections[s.SectionNumber-1]), MaxSectionBytes, "a section")
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, nil
	}
	if uint64(e.Value) > uint64(len(data)) {
		return nil, nil
	}
	return data[s.Value:e.Value], nil
}
