package disasm

import (
	"debug/gosym"
	"encoding/binary"
	"testing"
)

// tinyPclntab builds a Go 1.20 line table of one function, main.f at
// [0, 16) of main.go: line 10 for [0, 8), line 12 for [8, 16). It is the
// fuzz seed of FuzzLineTable and documents the layout newLineTable reads.
func tinyPclntab() []byte {
	le := binary.LittleEndian
	names := []byte("main.f\x00")
	cutab := le.AppendUint32(nil, 0)
	files := []byte("main.go\x00")
	// pc-value tables: zigzag value delta, pc delta; a 0 ends a table.
	// Offset 0 is left unused, as in the runtime.
	pctab := []byte{0, 2, 16, 0, 22, 8, 4, 8, 0} // file 0 for 16; line 10 for 8, 12 for 8
	var fd []byte
	for _, v := range []uint32{0, 12, 16} { // functab: entry 0 at func offset 12; end 16
		fd = le.AppendUint32(fd, v)
	}
	for _, v := range []uint32{0, 0, 0, 0, 0, 1, 4, 0, 0, 10, 0} { // _func: entry, name, args, deferreturn, pcsp, pcfile, pcln, npcdata, cu, startLine, flags
		fd = le.AppendUint32(fd, v)
	}
	hdr := le.AppendUint32(nil, 0xfffffff1)
	hdr = append(hdr, 0, 0, 1, 8)
	off := uint64(8 + 8*8)
	words := []uint64{1, 1, 0}
	for _, part := range [][]byte{names, cutab, files, pctab, fd} {
		words = append(words, off)
		off += uint64(len(part))
	}
	for _, w := range words {
		hdr = le.AppendUint64(hdr, w)
	}
	for _, part := range [][]byte{names, cutab, files, pctab, fd} {
		hdr = append(hdr, part...)
	}
	return hdr
}

func TestTinyPclntab(t *testing.T) {
	data := tinyPclntab()
	lt := newLineTable(data, 0)
	if lt == nil {
		t.Fatal("not parsed")
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, 0))
	if err != nil {
		t.Fatal(err)
	}
	var cur funcLines
	b := &Binary{pcln: lt, lines: tab}
	for pc, want := range []int{10, 10, 10, 10, 10, 10, 10, 10, 12, 12, 12, 12, 12, 12, 12, 12} {
		file, line := b.lineAt(&cur, uint64(pc))
		gfile, gline, _ := tab.PCToLine(uint64(pc))
		if file != "main.go" || line != want || file != gfile || line != gline {
			t.Errorf("pc %d: %s:%d, gosym %s:%d, want main.go:%d", pc, file, line, gfile, gline, want)
		}
	}
}

// FuzzLineTable reads arbitrary line tables: no panic, and wherever
// debug/gosym finds a function, the forward walk agrees with it.
func FuzzLineTable(f *testing.F) {
	f.Add(tinyPclntab(), uint64(3), uint64(9))
	f.Fuzz(func(t *testing.T, data []byte, pc1, pc2 uint64) {
		lt := newLineTable(data, 0)
		if lt == nil {
			return
		}
		tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, 0))
		if err != nil {
			return
		}
		b := &Binary{pcln: lt, lines: tab}
		var cur funcLines
		pc1, pc2 = pc1%4096, pc2%4096
		pc1, pc2 = min(pc1, pc2), max(pc1, pc2) // the walk goes forwards
		for _, pc := range []uint64{pc1, pc2} {
			file, line := b.lineAt(&cur, pc)
			if gfile, gline, fn := tab.PCToLine(pc); fn != nil && (file != gfile || line != gline) {
				t.Errorf("pc %d: %s:%d, gosym %s:%d", pc, file, line, gfile, gline)
			}
		}
	})
}
