package dirstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Blocks and rollup files are sequences of blobs, each a zstd frame
// written once and found by a blobRef: where it is, its length, the length
// of its content and the CRC-32C of its compressed bytes, which is checked
// before anything is decompressed. The file ends with a footer that finds
// its index, itself a blob:
//
//	magic (8 bytes)  blobs ...  index blob  footer
//	footer: index offset (8), length (4), content length (4), CRC-32C (4),
//	        CRC-32C of the 20 bytes before (4), end magic (8)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func checksum(p []byte) uint32 { return crc32.Checksum(p, castagnoli) }

// maxBlob bounds the content of one blob, so that a corrupt length cannot
// make a reader allocate without bound.
const maxBlob = 1 << 30

// A blobRef finds a blob in its file.
type blobRef struct {
	off      int64
	n, raw   uint32
	checksum uint32
}

func (b *buf) blobRef(x blobRef) {
	b.uint(uint64(x.off))
	b.uint(uint64(x.n))
	b.uint(uint64(x.raw))
	b.u32(x.checksum)
}

func (r *reader) blobRef() blobRef {
	x := blobRef{off: int64(r.uint()), n: uint32(r.uint()), raw: uint32(r.uint()), checksum: r.u32()}
	if x.off < 0 {
		r.failf("negative offset")
	}
	return x
}

var (
	encoder = sync.OnceValue(func() *zstd.Encoder {
		e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(2))
		if err != nil {
			panic(err) // only for invalid options
		}
		return e
	})
	decoder = sync.OnceValue(func() *zstd.Decoder {
		d, err := zstd.NewReader(nil, zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderConcurrency(2))
		if err != nil {
			panic(err) // only for invalid options
		}
		return d
	})
)

const footerSize = 32

// A fileWriter writes a block or rollup file under a temporary name.
type fileWriter struct {
	f     *os.File
	path  string // the temporary file's
	w     *bufio.Writer
	off   int64
	magic string
}

// createFile creates path (which must not exist) and writes magic.
func createFile(path, magic string) (*fileWriter, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	w := &fileWriter{f: f, path: path, w: bufio.NewWriterSize(f, 256<<10), magic: magic}
	w.write([]byte(magic))
	return w, nil
}

func (w *fileWriter) write(p []byte) {
	n, _ := w.w.Write(p) // the error, sticky, is Flush's
	w.off += int64(n)
}

// blob compresses raw and writes it.
func (w *fileWriter) blob(raw []byte) blobRef {
	z := encoder().EncodeAll(raw, nil)
	ref := blobRef{off: w.off, n: uint32(len(z)), raw: uint32(len(raw)), checksum: checksum(z)}
	w.write(z)
	return ref
}

// finish writes the index and footer, syncs the file and closes it.
func (w *fileWriter) finish(index []byte) error {
	ref := w.blob(index)
	var f buf
	f.u64(uint64(ref.off))
	f.u32(ref.n)
	f.u32(ref.raw)
	f.u32(ref.checksum)
	f.u32(checksum(f))
	f = append(f, w.magic[:4]...)
	f = append(f, "END\x00"...)
	w.write(f)
	err := w.w.Flush()
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// abort closes and removes the temporary file.
func (w *fileWriter) abort() {
	w.f.Close()
	os.Remove(w.path)
}

// readBlob reads the blob ref finds in f and decompresses it.
func readBlob(f io.ReaderAt, ref blobRef) ([]byte, error) {
	if ref.raw > maxBlob || ref.n > maxBlob {
		return nil, fmt.Errorf("blob at %d: length out of range: %w", ref.off, ErrCorrupt)
	}
	z := make([]byte, ref.n)
	if _, err := f.ReadAt(z, ref.off); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("blob at %d: past the end of the file: %w", ref.off, ErrCorrupt)
		}
		return nil, err
	}
	if checksum(z) != ref.checksum {
		return nil, fmt.Errorf("blob at %d: checksum mismatch: %w", ref.off, ErrCorrupt)
	}
	raw, err := decoder().DecodeAll(z, make([]byte, 0, ref.raw))
	if err != nil || len(raw) != int(ref.raw) {
		return nil, fmt.Errorf("blob at %d: bad compressed data: %w", ref.off, ErrCorrupt)
	}
	return raw, nil
}

// readIndex checks the magic and footer of a file of size bytes and
// returns its index blob.
func readIndex(f io.ReaderAt, size int64, magic string) ([]byte, error) {
	head := make([]byte, len(magic))
	if size < int64(len(magic)+footerSize) {
		return nil, fmt.Errorf("%d bytes, too short: %w", size, ErrCorrupt)
	}
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, err
	}
	if string(head) != magic {
		return nil, fmt.Errorf("not a %s file: %w", magic, ErrCorrupt)
	}
	foot := make([]byte, footerSize)
	if _, err := f.ReadAt(foot, size-footerSize); err != nil {
		return nil, err
	}
	if string(foot[24:]) != magic[:4]+"END\x00" || binary.LittleEndian.Uint32(foot[20:]) != checksum(foot[:20]) {
		return nil, fmt.Errorf("bad footer (a file cut short?): %w", ErrCorrupt)
	}
	ref := blobRef{
		off: int64(binary.LittleEndian.Uint64(foot)),
		n:   binary.LittleEndian.Uint32(foot[8:]), raw: binary.LittleEndian.Uint32(foot[12:]),
		checksum: binary.LittleEndian.Uint32(foot[16:]),
	}
	if ref.off < 0 || ref.off+int64(ref.n) > size-footerSize {
		return nil, fmt.Errorf("index out of the file: %w", ErrCorrupt)
	}
	idx, err := readBlob(f, ref)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return idx, nil
}
