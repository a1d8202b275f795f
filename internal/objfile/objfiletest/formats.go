package objfiletest

import (
	"encoding/binary"
)

// WriteELF writes a 64-bit little-endian x86-64 ELF executable with the
// sections secs (after a null section, and before .shstrtab) and one
// executable PT_LOAD segment at 0x400000.
func WriteELF(path string, secs []Section) error {
	const ehsize, phsize, shsize = 64, 56, 64
	names := []byte{0}
	nameOff := make([]uint32, len(secs)+1)
	for i, s := range secs {
		nameOff[i] = uint32(len(names))
		names = append(append(names, s.Name...), 0)
	}
	nameOff[len(secs)] = uint32(len(names))
	names = append(names, ".shstrtab\x00"...)
	all := append(append([]Section(nil), secs...), Section{Name: ".shstrtab", Data: names, Type: 3})
	n := len(all) + 1
	const shoff = ehsize + phsize
	offs, end := layout(all, uint64(shoff+n*shsize))
	head := make([]byte, shoff+n*shsize)
	le := binary.LittleEndian
	copy(head, "\x7fELF\x02\x01\x01")
	le.PutUint16(head[16:], 2)  // ET_EXEC
	le.PutUint16(head[18:], 62) // EM_X86_64
	le.PutUint32(head[20:], 1)
	le.PutUint64(head[24:], 0x401000)
	le.PutUint64(head[32:], ehsize)
	le.PutUint64(head[40:], uint64(shoff))
	le.PutUint16(head[52:], ehsize)
	le.PutUint16(head[54:], phsize)
	le.PutUint16(head[56:], 1)
	le.PutUint16(head[58:], shsize)
	le.PutUint16(head[60:], uint16(n))
	le.PutUint16(head[62:], uint16(n-1))
	ph := head[ehsize:]
	le.PutUint32(ph[0:], 1) // PT_LOAD
	le.PutUint32(ph[4:], 5) // PF_R|PF_X
	le.PutUint64(ph[16:], 0x400000)
	le.PutUint64(ph[24:], 0x400000)
	le.PutUint64(ph[32:], 0x1000)
	le.PutUint64(ph[40:], 0x1000)
	le.PutUint64(ph[48:], 0x1000)
	for i, s := range all {
		sh := head[shoff+(i+1)*shsize:]
		typ, flags, size := s.Type, uint64(0), uint64(len(s.Data))
		if typ == 0 {
			typ = 1 // SHT_PROGBITS
		}
		switch {
		case s.Compressed:
			flags = 0x800 // SHF_COMPRESSED, not allocated
		case s.Name == ".text":
			flags = 0x6 // SHF_ALLOC|SHF_EXECINSTR
		}
		if s.Sparse != 0 {
			size = s.Sparse
		}
		le.PutUint32(sh[0:], nameOff[i])
		le.PutUint32(sh[4:], typ)
		le.PutUint64(sh[8:], flags)
		le.PutUint64(sh[16:], s.Addr)
		le.PutUint64(sh[24:], offs[i])
		le.PutUint64(sh[32:], size)
		le.PutUint32(sh[40:], s.Link)
		le.PutUint64(sh[48:], 1)
		if typ == 2 { // SHT_SYMTAB
			le.PutUint64(sh[56:], 24)
		}
	}
	return write(path, head, all, offs, end)
}

// WriteMachO writes a 64-bit x86-64 Mach-O executable whose one segment,
// __DWARF, holds the sections secs (names such as __debug_info).
func WriteMachO(path string, secs []Section) error {
	const hsize, segsize, sectsize = 32, 72, 80
	cmdsize := segsize + sectsize*len(secs)
	offs, end := layout(secs, uint64(hsize+cmdsize))
	head := make([]byte, hsize+cmdsize)
	le := binary.LittleEndian
	le.PutUint32(head[0:], 0xfeedfacf)
	le.PutUint32(head[4:], 0x01000007) // CPU_TYPE_X86_64
	le.PutUint32(head[8:], 3)
	le.PutUint32(head[12:], 2) // MH_EXECUTE
	le.PutUint32(head[16:], 1)
	le.PutUint32(head[20:], uint32(cmdsize))
	seg := head[hsize:]
	le.PutUint32(seg[0:], 0x19) // LC_SEGMENT_64
	le.PutUint32(seg[4:], uint32(cmdsize))
	copy(seg[8:24], "__DWARF")
	le.PutUint64(seg[40:], uint64(hsize+cmdsize))
	le.PutUint64(seg[48:], end-uint64(hsize+cmdsize))
	le.PutUint32(seg[64:], uint32(len(secs)))
	for i, s := range secs {
		sect := seg[segsize+i*sectsize:]
		size := uint64(len(s.Data))
		if s.Sparse != 0 {
			size = s.Sparse
		}
		copy(sect[0:16], s.Name)
		copy(sect[16:32], "__DWARF")
		le.PutUint64(sect[32:], s.Addr)
		le.PutUint64(sect[40:], size)
		le.PutUint32(sect[48:], uint32(offs[i]))
	}
	return write(path, head, secs, offs, end)
}

// WritePE writes an x86-64 PE file with no optional header whose sections
// are secs; their names go to the COFF string table.
func WritePE(path string, secs []Section) error {
	const peoff, fhsize, shsize = 0x40, 24, 40
	strtab := []byte{0, 0, 0, 0}
	nameOff := make([]int, len(secs))
	for i, s := range secs {
		nameOff[i] = len(strtab)
		strtab = append(append(strtab, s.Name...), 0)
	}
	binary.LittleEndian.PutUint32(strtab, uint32(len(strtab)))
	hdrEnd := uint64(peoff + fhsize + shsize*len(secs))
	all := append(append([]Section(nil), secs...), Section{Data: strtab})
	offs, end := layout(all, hdrEnd)
	head := make([]byte, hdrEnd)
	le := binary.LittleEndian
	copy(head, "MZ")
	le.PutUint32(head[0x3c:], peoff)
	fh := head[peoff:]
	copy(fh, "PE\x00\x00")
	le.PutUint16(fh[4:], 0x8664)
	le.PutUint16(fh[6:], uint16(len(secs)))
	le.PutUint32(fh[12:], uint32(offs[len(secs)])) // the string table follows the (empty) symbol table
	for i, s := range secs {
		sh := head[peoff+fhsize+i*shsize:]
		size := uint32(len(s.Data))
		if s.Sparse != 0 {
			size = uint32(min(s.Sparse, 1<<32-1))
		}
		copy(sh[0:8], "/"+itoa(nameOff[i]))
		le.PutUint32(sh[12:], uint32(0x1000*(i+1)))
		le.PutUint32(sh[16:], size)
		le.PutUint32(sh[20:], uint32(offs[i]))
		le.PutUint32(sh[36:], 0x42000040) // initialized data, discardable, readable
	}
	return write(path, head, all, offs, end)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
