package disasm

import (
	"io"
	"sync"

	"golang.org/x/arch/arm64/arm64asm"
	"golang.org/x/arch/x86/x86asm"
)

// An Inst is one decoded instruction.
type Inst struct {
	Addr uint64
	Size int
	Text string // Go assembler syntax, with symbolic operands
	File string // from the Go line table
	Line int
}

// a decoder decodes the instruction at the start of code, at address pc.
type decoder func(code []byte, pc uint64, lookup func(uint64) (string, uint64)) (string, int)

// decoders are the supported architectures.
var decoders = map[string]decoder{
	"amd64": decodeAMD64,
	"arm64": decodeARM64,
}

// Supported reports whether Open accepts binaries of goarch.
func Supported(goarch string) bool { return decoders[goarch] != nil }

func decodeAMD64(code []byte, pc uint64, lookup func(uint64) (string, uint64)) (string, int) {
	inst, err := x86asm.Decode(code, 64)
	if err != nil || inst.Len == 0 || inst.Op == 0 {
		return "?", 1
	}
	return x86asm.GoSyntax(inst, pc, lookup), inst.Len
}

// arm64Decode serializes arm64asm.Decode, which records the decoding
// patterns it used in a package variable (decoderCover): callers decode
// functions in parallel.
var arm64Decode sync.Mutex

func decodeARM64(code []byte, pc uint64, lookup func(uint64) (string, uint64)) (string, int) {
	arm64Decode.Lock()
	inst, err := arm64asm.Decode(code)
	arm64Decode.Unlock()
	if err != nil || inst.Op == 0 {
		return "?", 4
	}
	return arm64asm.GoSyntax(inst, pc, lookup, textReader{code, pc}), 4
}

// textReader lets the arm64 decoder read PC-relative literals.
type textReader struct {
	code []byte
	pc   uint64
}

func (r textReader) ReadAt(data []byte, off int64) (n int, err error) {
	if off < 0 || uint64(off) < r.pc {
		return 0, io.EOF
	}
	d := uint64(off) - r.pc
	if d >= uint64(len(r.code)) {
		return 0, io.EOF
	}
	n = copy(data, r.code[d:])
	if n < len(data) {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

var _ io.ReaderAt = textReader{}

// Decode disassembles [start, end) of the text, clipped to it, calling f
// for each instruction in address order.
func (b *Binary) Decode(start, end uint64, f func(Inst)) {
	textEnd := b.textStart + uint64(len(b.text))
	start = max(start, b.textStart)
	end = min(end, textEnd)
	if start >= end {
		return
	}
	code := b.text[:end-b.textStart]
	dec := decoders[b.GOARCH]
	var lines funcLines
	for pc := start; pc < end; {
		text, size := dec(code[pc-b.textStart:], pc, b.lookup)
		file, line := b.lineAt(&lines, pc)
		f(Inst{Addr: pc, Size: size, Text: text, File: file, Line: line})
		pc += uint64(size)
	}
}

// lineAt returns the file and line at pc, walking the function's tables
// with cur when pcs come in increasing order; debug/gosym answers when
// the table's version is not handled or its data are out of bounds.
func (b *Binary) lineAt(cur *funcLines, pc uint64) (string, int) {
	if b.pcln != nil {
		ok := cur.t != nil && cur.lo <= pc && pc < cur.hi
		if !ok {
			*cur, ok = b.pcln.function(pc)
		}
		if ok {
			if file, line, ok := cur.at(pc); ok {
				return file, line
			}
			*cur = funcLines{}
		}
	}
	file, line, _ := b.lines.PCToLine(pc)
	return file, line
}
