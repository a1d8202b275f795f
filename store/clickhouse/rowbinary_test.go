package clickhouse

import (
	"bytes"
	"testing"
)

// TestRowReaderErrors checks that an answer cut inside a row, or with a
// length beyond the reader's budget, is an error rather than a short row.
func TestRowReaderErrors(t *testing.T) {
	var w rowWriter
	row{s: "hello", strs: []string{"a", "b"}, u64s: []uint64{1, 2}, i64s: []int64{-1}}.write(&w)
	whole := w.buf
	for cut := 1; cut < len(whole); cut++ {
		r := newRowReader(bytes.NewReader(whole[:cut]), 1<<20)
		if !r.more() {
			t.Fatalf("cut at %d: no row", cut)
		}
		readRow(r)
		if r.err != errShort {
			t.Errorf("cut at %d of %d: %v, want %v", cut, len(whole), r.err, errShort)
		}
	}
	r := newRowReader(bytes.NewReader(whole), 3) // "hello" is over 3 bytes
	readRow(r)
	if r.err == nil {
		t.Errorf("a 5-byte string read with a budget of 3: no error")
	}
	r = newRowReader(bytes.NewReader(whole), 1<<20)
	if got := readRow(r); r.err != nil || r.more() || !rowsEqual(got, row{s: "hello", strs: []string{"a", "b"}, u64s: []uint64{1, 2}, i64s: []int64{-1}}) {
		t.Errorf("whole row: %+v, %v", got, r.err)
	}
}

// FuzzRowReader reads arbitrary answers as rows of every type: no
// panic, and no more memory than the budget.
func FuzzRowReader(f *testing.F) {
	var w rowWriter
	row{u64: 1, s: "x", strs: []string{"a"}, u64s: []uint64{2}, i64s: []int64{-3}}.write(&w)
	row{}.write(&w)
	f.Add(w.buf)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := newRowReader(bytes.NewReader(b), 1<<16)
		for i := 0; r.more() && i < len(b); i++ {
			readRow(r)
		}
		if r.budget < 0 {
			t.Errorf("budget overdrawn: %d", r.budget)
		}
	})
}
