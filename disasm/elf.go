package disasm

import (
	"debug/elf"
	"encoding/hex"
)

// readELF reads the parts of an ELF executable (Linux, FreeBSD) that
// disassembly needs, as the go tool's objfile package does.
func readELF(f *elf.File) (*rawBinary, error) {
	raw := &rawBinary{goarch: elfArch(f), buildID: elfBuildID(f)}
	elfSyms, err := f.Symbols()
	raw.symErr = err
	for _, s := range elfSyms {
		raw.syms = append(raw.syms, Sym{Name: s.Name, Addr: s.Value, Size: s.Size})
	}
	raw.runtimeText = runtimeTextAddr(raw.syms)
	if sect := f.Section(".text"); sect != nil {
		raw.textStart = sect.Addr
		if raw.text, err = sect.Data(); err != nil {
			return nil, err
		}
	}
	sect := f.Section(".gopclntab")
	if sect == nil {
		sect = f.Section(".data.rel.ro.gopclntab") // position-independent executables
	}
	if sect != nil && sect.Type != elf.SHT_NOBITS {
		if raw.pclntab, err = sect.Data(); err != nil {
			return nil, err
		}
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			align := p.Align
			if align == 0 {
				align = 1
			}
			raw.loadAddr, raw.hasLoad = p.Vaddr-p.Vaddr%align, true
			break
		}
	}
	return raw, nil
}

// elfArch maps the ELF machine to a GOARCH, "" for others.
func elfArch(f *elf.File) string {
	switch f.Machine {
	case elf.EM_X86_64:
		return "amd64"
	case elf.EM_AARCH64:
		return "arm64"
	case elf.EM_386:
		return "386"
	case elf.EM_ARM:
		return "arm"
	case elf.EM_RISCV:
		return "riscv64"
	case elf.EM_PPC64:
		return "ppc64"
	case elf.EM_S390:
		return "s390x"
	case elf.EM_LOONGARCH:
		return "loong64"
	}
	return f.Machine.String()
}

// elfBuildID returns the NT_GNU_BUILD_ID note in hex, as runtime/pprof
// records it in a profile's mapping, or "".
func elfBuildID(f *elf.File) string {
	const ntGNUBuildID = 3
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		for len(data) >= 12 {
			nameSize := f.ByteOrder.Uint32(data[0:])
			descSize := f.ByteOrder.Uint32(data[4:])
			typ := f.ByteOrder.Uint32(data[8:])
			nameEnd := 12 + align4(uint64(nameSize))
			descEnd := nameEnd + align4(uint64(descSize))
			if nameEnd > uint64(len(data)) || 12+uint64(nameSize) > uint64(len(data)) || nameEnd+uint64(descSize) > uint64(len(data)) {
				break
			}
			if typ == ntGNUBuildID && string(data[12:12+nameSize]) == "GNU\x00" {
				return hex.EncodeToString(data[nameEnd : nameEnd+uint64(descSize)])
			}
			if descEnd > uint64(len(data)) {
				break
			}
			data = data[descEnd:]
		}
	}
	return ""
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }
