package objfile

import (
	"debug/gosym"
	"encoding/binary"
	"errors"
)

// GoTable returns debug/gosym's table for a Go line table (see
// GoLineTable), refusing one whose header claims more functions than the
// table can hold: gosym allocates a slot for each before it reads any, so
// a crafted count of billions would exhaust memory.
func GoTable(pclntab []byte, textStart uint64) (*gosym.Table, error) {
	if n, ok := goFuncCount(pclntab); ok && n > uint64(len(pclntab))/minFuncEntry {
		return nil, errors.New("malformed Go line table: it claims more functions than it holds")
	}
	return gosym.NewTable(nil, gosym.NewLineTable(pclntab, textStart))
}

// minFuncEntry is the smallest a function's entry in the line table's
// function table is, in every version since Go 1.2: two 4-byte words.
const minFuncEntry = 8

// goFuncCount reads the number of functions from a Go 1.2 or later line
// table's header: a 4-byte magic in the table's byte order, two zero
// bytes, the instruction quantum, the pointer size, then the count, one
// pointer wide. It reports false for a header it does not know, which
// gosym then refuses or reads without a count.
func goFuncCount(data []byte) (uint64, bool) {
	if len(data) < 16 || (data[7] != 4 && data[7] != 8) {
		return 0, false
	}
	for _, ord := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		switch ord.Uint32(data) {
		case 0xfffffffb, 0xfffffffa, 0xfffffff0, 0xfffffff1: // Go 1.2, 1.16, 1.18, 1.20
			if data[7] == 4 {
				return uint64(ord.Uint32(data[8:])), true
			}
			return ord.Uint64(data[8:]), true
		}
	}
	return 0, false
}
