// Package objfiletest writes small hostile object files for the tests of
// package objfile and its users, and for scripts/hostile/objfiles:
// sections whose compressed data declares far more than it holds
// (compression bombs) and huge sparse sections, in ELF, Mach-O and PE.
package objfiletest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"os"
	"runtime"
)

// A Section is one section of a generated file.
type Section struct {
	Name string
	Data []byte // the bytes stored in the file
	// Sparse, if not 0, is the section's size in the file: its bytes are
	// a hole at the end of the file (Data is ignored).
	Sparse uint64
	// Compressed marks an ELF section SHF_COMPRESSED: Data holds its
	// compression header and zlib data (see ELFCompressed).
	Compressed bool
	Type       uint32 // ELF section type; 0 means SHT_PROGBITS
	Link       uint32 // ELF section link
	Addr       uint64 // ELF and Mach-O address
}

// Zeros returns a zlib stream that inflates to n zero bytes: a few
// kilobytes per megabyte.
func Zeros(n uint64) []byte {
	var b bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	chunk := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, uint64(len(chunk)))
		zw.Write(chunk[:k])
		n -= k
	}
	zw.Close()
	return b.Bytes()
}

// ELFCompressed returns the stored bytes of an SHF_COMPRESSED ELF64
// section that declares size bytes once inflated and holds z (a zlib
// stream, see Zeros).
func ELFCompressed(size uint64, z []byte) []byte {
	var h [24]byte
	binary.LittleEndian.PutUint32(h[0:], 1) // ELFCOMPRESS_ZLIB
	binary.LittleEndian.PutUint64(h[8:], size)
	binary.LittleEndian.PutUint64(h[16:], 1)
	return append(h[:], z...)
}

// ZLIB returns the stored bytes of a .zdebug section (or a Mach-O or PE
// DWARF section) that declares size bytes once inflated and holds z.
func ZLIB(size uint64, z []byte) []byte {
	h := []byte("ZLIB\x00\x00\x00\x00\x00\x00\x00\x00")
	binary.BigEndian.PutUint64(h[4:], size)
	return append(h, z...)
}

// layout places the sections' bytes after start, in order, sparse ones
// last, and returns their offsets and the end of the file.
func layout(secs []Section, start uint64) (offs []uint64, end uint64) {
	offs = make([]uint64, len(secs))
	end = start
	for i, s := range secs {
		if s.Sparse == 0 {
			offs[i], end = end, end+uint64(len(s.Data))
		}
	}
	for i, s := range secs {
		if s.Sparse != 0 {
			end = (end + 4095) &^ 4095
			offs[i], end = end, end+s.Sparse
		}
	}
	return offs, end
}

// write writes head, then each section's bytes at its offset, to path,
// and extends the file to end (the sparse sections are holes).
func write(path string, head []byte, secs []Section, offs []uint64, end uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(head, 0)
	for i, s := range secs {
		if err == nil && s.Sparse == 0 {
			_, err = f.WriteAt(s.Data, int64(offs[i]))
		}
	}
	if err == nil {
		err = f.Truncate(int64(end))
	}
	if err2 := f.Close(); err == nil {
		err = err2
	}
	return err
}

// Allocated returns how many bytes fn allocated on the heap: what a test
// of a bomb checks, since a refused bomb allocates next to nothing and a
// read one what it inflates to.
func Allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
