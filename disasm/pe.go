package disasm

import (
	"debug/pe"
	"fmt"
	"sort"
)

// readPE reads a PE executable (Windows), as the go tool's objfile
// package does.
func readPE(f *pe.File) (*rawBinary, error) {
	raw := &rawBinary{}
	switch f.Machine {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		raw.goarch = "amd64"
	case pe.IMAGE_FILE_MACHINE_ARM64:
		raw.goarch = "arm64"
	default:
		raw.goarch = fmt.Sprintf("pe-machine-%#x", f.Machine)
	}
	var base uint64
	switch oh := f.OptionalHeader.(type) {
	case *pe.OptionalHeader32:
		base = uint64(oh.ImageBase)
	case *pe.OptionalHeader64:
		base = oh.ImageBase
	default:
		return nil, fmt.Errorf("PE file without optional header")
	}
	raw.loadAddr, raw.hasLoad = base, true
	raw.syms, raw.symErr = peSyms(f, base)
	raw.runtimeText = runtimeTextAddr(raw.syms)
	var err error
	if sect := f.Section(".text"); sect != nil {
		raw.textStart = base + uint64(sect.VirtualAddress)
		if raw.text, err = sect.Data(); err != nil {
			return nil, err
		}
	}
	raw.pclntab = peTable(f, "runtime.pclntab", "runtime.epclntab")
	return raw, nil
}

// peSyms lists the symbols at their virtual addresses; PE has no sizes, so
// each extends to the next address.
func peSyms(f *pe.File, base uint64) ([]Sym, error) {
	var syms []Sym
	var addrs []uint64
	for _, s := range f.Symbols {
		sym := Sym{Name: s.Name, Addr: uint64(s.Value)}
		if s.SectionNumber > 0 {
			if int(s.SectionNumber) > len(f.Sections) {
				return nil, fmt.Errorf("invalid section number in symbol table")
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

// peTable returns the bytes between two symbols of one section, nil if
// they are missing.
func peTable(f *pe.File, start, end string) []byte {
	find := func(name string) *pe.Symbol {
		for _, s := range f.Symbols {
			if s.Name == name && s.SectionNumber > 0 && int(s.SectionNumber) <= len(f.Sections) {
				return s
			}
		}
		return nil
	}
	s, e := find(start), find(end)
	if s == nil || e == nil || s.SectionNumber != e.SectionNumber || e.Value < s.Value {
		return nil
	}
	data, err := f.Sections[s.SectionNumber-1].Data()
	if err != nil || uint64(e.Value) > uint64(len(data)) {
		return nil
	}
	return data[s.Value:e.Value]
}
