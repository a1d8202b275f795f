package disasm

import (
	"debug/macho"
	"sort"
)

// readMachO reads a Mach-O executable (macOS), as the go tool's objfile
// package does.
func readMachO(f *macho.File) (*rawBinary, error) {
	raw := &rawBinary{goarch: machoArch(f.Cpu)}
	if f.Symtab == nil {
		raw.symErr = ErrStripped
	} else {
		raw.syms = machoSyms(f)
	}
	raw.runtimeText = runtimeTextAddr(raw.syms)
	var err error
	if sect := f.Section("__text"); sect != nil {
		raw.textStart = sect.Addr
		if raw.text, err = sect.Data(); err != nil {
			return nil, err
		}
	}
	if sect := f.Section("__gopclntab"); sect != nil {
		if raw.pclntab, err = sect.Data(); err != nil {
			return nil, err
		}
	}
	if seg := f.Segment("__TEXT"); seg != nil {
		raw.loadAddr, raw.hasLoad = seg.Addr, true
	}
	return raw, nil
}

// machoSyms lists the defined symbols; Mach-O has no sizes, so each one
// extends to the next address, as in the go tool.
func machoSyms(f *macho.File) []Sym {
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
	return syms
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
