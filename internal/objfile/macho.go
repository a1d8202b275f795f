package objfile

import (
	"debug/macho"
	"sort"
)

// machoSection describes s; a DWARF section may hold zlib data behind a
// "ZLIB" header declaring the uncompressed size, which debug/macho
// allocates at once (see zlibSize).
func machoSection(s *macho.Section) section {
	return section{name: s.Name, size: zlibSize(s.Name, s, s.Size), data: s.Data}
}

// machoArch maps a Mach-O CPU to a GOARCH.
func machoArch(c macho.Cpu) string {
	switch c {
	case macho.CpuAmd64:
		return "amd64"
	case macho.CpuArm64:
		return "arm64"
	case macho.Cpu386:
		return "386"
	case macho.CpuArm:
		return "arm"
	}
	return c.String()
}

// machoSymbols lists the defined symbols (debug/macho read them with the
// headers); Mach-O has no sizes, so each one extends to the next address,
// as in the go tool.
func machoSymbols(f *macho.File) ([]Sym, error) {
	if f.Symtab == nil {
		return nil, ErrNoSymbols
	}
	const stabTypeMask = 0xe0
	var addrs []uint64
	for _, s := range f.Symtab.Syms {
		if s.Type&stabTypeMask == 0 {
			addrs = append(addrs, s.Value)
		}
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	var syms []Sym
	for _, s := range f.Symtab.Syms {
		if s.Type&stabTypeMask != 0 { // stab debugging entries
			continue
		}
		sym := Sym{Name: s.Name, Addr: s.Value}
		i := sort.Search(len(addrs), func(i int) bool { return addrs[i] > s.Value })
		if i < len(addrs) {
			sym.Size = addrs[i] - s.Value
		}
		syms = append(syms, sym)
	}
	return syms, nil
}
