package objfile

import (
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"strings"
)

// elfSection describes s with its uncompressed size: SHF_COMPRESSED
// sections declare it in their header (debug/elf reports it as Size),
// .zdebug sections after "ZLIB". A SHT_NOBITS section takes no room.
func elfSection(s *elf.Section) section {
	sec := section{name: s.Name, size: s.Size, data: s.Data}
	switch {
	case s.Type == elf.SHT_NOBITS:
		sec.size = 0 // its Data fails: there is nothing in the file
	case s.Flags&elf.SHF_COMPRESSED == 0 && strings.HasPrefix(s.Name, ".zdebug"):
		var hdr [12]byte
		if n, _ := s.ReadAt(hdr[:], 0); n == len(hdr) && string(hdr[:4]) == "ZLIB" {
			sec.size = binary.BigEndian.Uint64(hdr[4:])
		}
	}
	return sec
}

// elfArch maps the ELF machine to a GOARCH, its name for others.
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

// elfSymbols reads the symbol table, after checking the sizes of it and
// of its string table.
func (o *File) elfSymbols() ([]Sym, error) {
	for _, s := range o.elf.Sections {
		if s.Type != elf.SHT_SYMTAB {
			continue
		}
		if err := o.take(elfSection(s), MaxSymbolBytes, "a symbol table"); err != nil {
			return nil, err
		}
		if int(s.Link) < len(o.elf.Sections) {
			if err := o.take(elfSection(o.elf.Sections[s.Link]), MaxSymbolBytes, "a symbol table"); err != nil {
				return nil, err
			}
		}
	}
	esyms, err := o.elf.Symbols()
	if err != nil {
		return nil, err
	}
	syms := make([]Sym, len(esyms))
	for i, s := range esyms {
		syms[i] = Sym{Name: s.Name, Addr: s.Value, Size: s.Size}
	}
	return syms, nil
}

// elfGoLineTable finds the Go line table: .gopclntab, or
// .data.rel.ro.gopclntab in position-independent executables.
func (o *File) elfGoLineTable() *section {
	s := o.elf.Section(".gopclntab")
	if s == nil {
		s = o.elf.Section(".data.rel.ro.gopclntab")
	}
	if s == nil || s.Type == elf.SHT_NOBITS {
		return nil
	}
	sec := elfSection(s)
	return &sec
}

// elfLoadAddress is the start of the first executable segment, aligned
// down, as the kernel maps it.
func elfLoadAddress(f *elf.File) (uint64, bool) {
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			align := max(p.Align, 1)
			return p.Vaddr - p.Vaddr%align, true
		}
	}
	return 0, false
}

// elfBuildID returns the NT_GNU_BUILD_ID note in hex, as runtime/pprof
// records it in a profile's mapping, or "".
func (o *File) elfBuildID() string {
	const ntGNUBuildID = 3
	f := o.elf
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := o.read(elfSection(s), MaxSectionBytes, "a section")
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

// elfRelocatesDWARF reports whether section i of a relocatable ELF file
// holds relocations of a DWARF section, which debug/elf reads with it.
func (o *File) elfRelocatesDWARF(i int) bool {
	s := o.elf.Sections[i]
	if o.elf.Type == elf.ET_REL && (s.Type == elf.SHT_RELA || s.Type == elf.SHT_REL) {
		return int(s.Info) < len(o.elf.Sections) && isDWARF(o.elf.Sections[s.Info].Name)
	}
	return false
}
