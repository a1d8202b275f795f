package disasm

import (
	"encoding/binary"
	"sort"
	"sync"
)

// A lineTable reads the Go 1.18+ line table (pclntab) directly, so that
// Decode can walk a function's pc-to-file and pc-to-line tables once, in
// step with the instructions, instead of from the function's start for
// every instruction as debug/gosym does. It answers exactly as gosym's
// Table.PCToLine; other table versions are left to gosym.
type lineTable struct {
	ord        binary.ByteOrder
	quantum    uint32
	nfunc      int
	textStart  uint64
	cutab      []byte
	filetab    []byte
	pctab      []byte
	funcdata   []byte
	functab    []byte // nfunc+1 (entry offset, func offset) uint32 pairs
	mu         sync.Mutex
	fileByOffs map[uint32]string
}

// newLineTable parses pclntab's header, or returns nil for a version it
// does not handle or a malformed header.
func newLineTable(data []byte, textStart uint64) *lineTable {
	if len(data) < 16 || data[4] != 0 || data[5] != 0 || (data[6] != 1 && data[6] != 2 && data[6] != 4) || (data[7] != 4 && data[7] != 8) {
		return nil
	}
	t := &lineTable{quantum: uint32(data[6]), textStart: textStart}
	const go118, go120 = 0xfffffff0, 0xfffffff1
	switch {
	case binary.LittleEndian.Uint32(data) == go118 || binary.LittleEndian.Uint32(data) == go120:
		t.ord = binary.LittleEndian
	case binary.BigEndian.Uint32(data) == go118 || binary.BigEndian.Uint32(data) == go120:
		t.ord = binary.BigEndian
	default:
		return nil
	}
	ptr := uint64(data[7])
	word := func(i uint64) (uint64, bool) {
		off := 8 + i*ptr
		if off+ptr > uint64(len(data)) {
			return 0, false
		}
		if ptr == 4 {
			return uint64(t.ord.Uint32(data[off:])), true
		}
		return t.ord.Uint64(data[off:]), true
	}
	var offs [8]uint64
	for i := range offs {
		v, ok := word(uint64(i))
		if !ok || (i >= 3 && v > uint64(len(data))) {
			return nil
		}
		offs[i] = v
	}
	t.cutab, t.filetab, t.pctab, t.funcdata = data[offs[4]:], data[offs[5]:], data[offs[6]:], data[offs[7]:]
	size := (offs[0]*2 + 1) * 4
	if offs[0] > uint64(len(data)) || size > uint64(len(t.funcdata)) {
		return nil
	}
	t.nfunc = int(offs[0])
	t.functab = t.funcdata[:size]
	t.fileByOffs = map[uint32]string{}
	return t
}

// entry returns the i'th function's entry address (i == nfunc: the end).
func (t *lineTable) entry(i int) uint64 {
	return uint64(t.ord.Uint32(t.functab[8*i:])) + t.textStart
}

// a funcLines walks one function's file and line tables forwards.
type funcLines struct {
	t          *lineTable
	lo, hi     uint64 // the function's addresses
	cuOffset   uint32
	file, line pcCursor
}

// a pcCursor is a position in a pc-value table: val holds until end.
type pcCursor struct {
	p     []byte
	entry uint64 // the function's entry: a step that ends there is a first one
	end   uint64
	val   int32
	moved bool // a step was taken: debug/gosym always takes one
	done  bool
}

// function returns the walker of the function holding pc, ok false if
// there is none or its data is out of bounds.
func (t *lineTable) function(pc uint64) (f funcLines, ok bool) {
	if t.nfunc == 0 || pc < t.entry(0) || pc >= t.entry(t.nfunc) {
		return f, false
	}
	i := sort.Search(t.nfunc, func(i int) bool { return t.entry(i) > pc }) - 1
	off := uint64(t.ord.Uint32(t.functab[8*i+4:]))
	if off+4*10 > uint64(len(t.funcdata)) {
		return f, false
	}
	fd := t.funcdata[off:]
	field := func(n int) uint32 { return t.ord.Uint32(fd[4*n:]) } // 1.18+: entry offset, then 4-byte fields
	lo := uint64(field(0)) + t.textStart
	f = funcLines{t: t, lo: lo, hi: t.entry(i + 1), cuOffset: field(8)}
	pcfile, pcln := uint64(field(5)), uint64(field(6))
	if pcfile > uint64(len(t.pctab)) || pcln > uint64(len(t.pctab)) {
		return f, false
	}
	f.file = pcCursor{p: t.pctab[pcfile:], entry: lo, end: lo, val: -1}
	f.line = pcCursor{p: t.pctab[pcln:], entry: lo, end: lo, val: -1}
	return f, true
}

// at returns the value at pc, which must not be below the last pc asked.
func (c *pcCursor) at(pc, quantum uint64) (int32, bool) {
	for !c.done && (pc >= c.end || !c.moved) {
		uv, ok := c.varint()
		if !ok {
			return 0, false
		}
		// As debug/gosym: a zero ends the table, except while the pc is
		// still the entry (the first value may be a zero delta).
		if uv == 0 && c.end != c.entry {
			c.done = true
			break
		}
		if uv&1 != 0 {
			uv = ^(uv >> 1)
		} else {
			uv >>= 1
		}
		d, ok := c.varint()
		if !ok {
			return 0, false
		}
		c.val += int32(uv)
		c.end += uint64(d) * quantum
		c.moved = true
	}
	if c.done {
		return -1, true
	}
	return c.val, true
}

func (c *pcCursor) varint() (uint32, bool) {
	var v uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if len(c.p) == 0 {
			return 0, false
		}
		b := c.p[0]
		c.p = c.p[1:]
		v |= uint32(b&0x7f) << shift
		if b&0x80 == 0 {
			return v, true
		}
	}
	return 0, false
}

// at returns the file and line at pc, ok false on malformed data.
func (f *funcLines) at(pc uint64) (file string, line int, ok bool) {
	q := uint64(f.t.quantum)
	fno, ok := f.file.at(pc, q)
	if !ok {
		return "", 0, false
	}
	ln, ok := f.line.at(pc, q)
	if !ok {
		return "", 0, false
	}
	if fno >= 0 {
		i := (uint64(f.cuOffset) + uint64(fno)) * 4
		if i+4 > uint64(len(f.t.cutab)) {
			return "", 0, false
		}
		if off := f.t.ord.Uint32(f.t.cutab[i:]); off != ^uint32(0) {
			if file, ok = f.t.fileName(off); !ok {
				return "", 0, false
			}
		}
	}
	return file, int(ln), true
}

// fileName returns the NUL-terminated file name at off in the file table.
func (t *lineTable) fileName(off uint32) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.fileByOffs[off]; ok {
		return s, true
	}
	if uint64(off) >= uint64(len(t.filetab)) {
		return "", false
	}
	b := t.filetab[off:]
	for i, c := range b {
		if c == 0 {
			s := string(b[:i])
			t.fileByOffs[off] = s
			return s, true
		}
	}
	return "", false
}
