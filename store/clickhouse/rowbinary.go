package clickhouse

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/perflab/perflab/store"
)

// RowBinary is the format of the store's inserts and query results:
// each row's values one after the other, fixed-size integers little-endian,
// strings and arrays preceded by their length as an unsigned LEB128
// varint. ClickHouse has read and written it the same way since before
// 18.16.

// rowWriter appends rows in RowBinary to a buffer.
type rowWriter struct {
	buf  []byte
	rows int
}

func (w *rowWriter) uint8(v uint8)   { w.buf = append(w.buf, v) }
func (w *rowWriter) int32(v int32)   { w.uint32(uint32(v)) }
func (w *rowWriter) uint32(v uint32) { w.buf = binary.LittleEndian.AppendUint32(w.buf, v) }
func (w *rowWriter) uint64(v uint64) { w.buf = binary.LittleEndian.AppendUint64(w.buf, v) }
func (w *rowWriter) int64(v int64)   { w.uint64(uint64(v)) }

func (w *rowWriter) bool(v bool) {
	if v {
		w.uint8(1)
	} else {
		w.uint8(0)
	}
}

// arrayLen begins an array of n elements, which the caller writes.
func (w *rowWriter) arrayLen(n int) { w.buf = binary.AppendUvarint(w.buf, uint64(n)) }

func (w *rowWriter) string(s string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	w.buf = append(w.buf, s...)
}

func (w *rowWriter) strings(ss []string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(ss)))
	for _, s := range ss {
		w.string(s)
	}
}

func (w *rowWriter) uint64s(vs []uint64) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(vs)))
	for _, v := range vs {
		w.uint64(v)
	}
}

func (w *rowWriter) hashes(hs []store.Hash) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(hs)))
	for _, h := range hs {
		w.uint64(uint64(h))
	}
}

func (w *rowWriter) int64s(vs []int64) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(vs)))
	for _, v := range vs {
		w.int64(v)
	}
}

// append appends the rows of other.
func (w *rowWriter) append(other *rowWriter) {
	w.buf = append(w.buf, other.buf...)
	w.rows += other.rows
}

// endRow counts a row written.
func (w *rowWriter) endRow() { w.rows++ }

// reset empties w, keeping its buffer.
func (w *rowWriter) reset() { w.buf, w.rows = w.buf[:0], 0 }

// maxValueBytes bounds one string or array read, so that a corrupt or
// hostile answer cannot make the reader allocate without bound.
const maxValueBytes = 64 << 20

// errShort is a row cut short.
var errShort = errors.New("RowBinary: answer ends inside a row")

// rowReader reads RowBinary rows. Its first error sticks: the methods
// then return zero values, and err tells what went wrong.
type rowReader struct {
	r   *bufio.Reader
	err error
	// budget is the bytes of strings and arrays the reader may still
	// allocate.
	budget int64
}

func newRowReader(r io.Reader, budget int64) *rowReader {
	return &rowReader{r: bufio.NewReaderSize(r, 64<<10), budget: budget}
}

// more reports whether another row follows; at the end of the answer it
// returns false and leaves err nil.
func (r *rowReader) more() bool {
	if r.err != nil {
		return false
	}
	_, err := r.r.Peek(1)
	if err == io.EOF {
		return false
	}
	if err != nil {
		r.err = err
		return false
	}
	return true
}

func (r *rowReader) fail(err error) {
	if r.err == nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = errShort
		}
		r.err = err
	}
}

func (r *rowReader) fixed(n int) []byte {
	if r.err != nil {
		return nil
	}
	b, err := r.r.Peek(n)
	if err != nil {
		r.fail(err)
		return nil
	}
	r.r.Discard(n)
	return b
}

func (r *rowReader) uint8() uint8 {
	if b := r.fixed(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *rowReader) uint32() uint32 {
	if b := r.fixed(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *rowReader) uint64() uint64 {
	if b := r.fixed(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *rowReader) int64() int64 { return int64(r.uint64()) }

func (r *rowReader) int32() int32 { return int32(r.uint32()) }

func (r *rowReader) bool() bool { return r.uint8() != 0 }

// length reads a string's or an array's length, charging size bytes for
// each element to the budget.
func (r *rowReader) length(size int64) int {
	if r.err != nil {
		return 0
	}
	n, err := binary.ReadUvarint(r.r)
	if err != nil {
		r.fail(err)
		return 0
	}
	if n > maxValueBytes || int64(n)*size > r.budget || n > math.MaxInt32 {
		r.fail(fmt.Errorf("RowBinary: a value of %d elements, over the reader's bound", n))
		return 0
	}
	r.budget -= int64(n) * size
	return int(n)
}

func (r *rowReader) string() string {
	n := r.length(1)
	if r.err != nil || n == 0 {
		return ""
	}
	if n > r.r.Size() {
		// A long string is read as it comes, so that a length the
		// answer does not hold costs no memory.
		var b strings.Builder
		if _, err := io.CopyN(&b, r.r, int64(n)); err != nil {
			r.fail(err)
			return ""
		}
		return b.String()
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r.r, b); err != nil {
		r.fail(err)
		return ""
	}
	return string(b)
}

func (r *rowReader) strings() []string {
	n := r.length(16)
	var ss []string
	for i := 0; i < n && r.err == nil; i++ {
		ss = append(ss, r.string())
	}
	return ss
}

func (r *rowReader) uint64s() []uint64 {
	n := r.length(8)
	var vs []uint64
	for i := 0; i < n && r.err == nil; i++ {
		vs = append(vs, r.uint64())
	}
	return vs
}

func (r *rowReader) hashes() []store.Hash {
	n := r.length(8)
	var hs []store.Hash
	for i := 0; i < n && r.err == nil; i++ {
		hs = append(hs, store.Hash(r.uint64()))
	}
	return hs
}

// arrayLen reads the length of an array whose elements the caller reads,
// each counted as size bytes against the budget.
func (r *rowReader) arrayLen(size int64) int { return r.length(size) }

func (r *rowReader) int64s() []int64 {
	n := r.length(8)
	var vs []int64
	for i := 0; i < n && r.err == nil; i++ {
		vs = append(vs, r.int64())
	}
	return vs
}
