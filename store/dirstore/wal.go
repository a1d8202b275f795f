package dirstore

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/store"
)

// The write-ahead log (WAL) is where Write puts profiles: a sequence of
// segment files, wal/NUMBER.wal, of which only the last is written to.
// A segment begins with a magic string, then holds chunks, each one
// commit of one or more Writes (group commit: the writers waiting while
// the previous commit is synced share the next one):
//
//	length of the payload (4 bytes), CRC-32C of the payload (4), payload
//
// A chunk is written with one write and synced before any of its writers
// is told; a crash can only leave the last chunk of the last segment cut
// short or unsynced, which its length or CRC tells, and which opening the
// store drops with a log line. Compaction turns a segment that is no
// longer written to into blocks and then removes it.

const walMagic = "PLWAL001"

// maxChunk bounds the payload of one chunk.
const maxChunk = 1 << 30

func segmentName(num uint64) string { return fmt.Sprintf("%016x.wal", num) }

// createSegment creates the segment file num in dir, synced with its
// directory.
func createSegment(dir string, num uint64) (*os.File, error) {
	path := filepath.Join(dir, segmentName(num))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write([]byte(walMagic)); err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	return f, nil
}

// chunkHeader is the room a chunk's payload buffer keeps at its start for
// its header.
const chunkHeader = 8

// writeChunk writes chunk, whose first chunkHeader bytes are free for
// the header, at off in f, and syncs f.
func writeChunk(f *os.File, off int64, chunk []byte) error {
	payload := chunk[chunkHeader:]
	binary.LittleEndian.PutUint32(chunk, uint32(len(payload)))
	binary.LittleEndian.PutUint32(chunk[4:], checksum(payload))
	if _, err := f.WriteAt(chunk, off); err != nil {
		return err
	}
	return f.Sync()
}

// A tornError tells where and why a segment's good chunks end.
type tornError struct {
	off   int64
	cause string
}

func (e *tornError) Error() string { return fmt.Sprintf("at offset %d: %s", e.off, e.cause) }

// readChunks reads the chunks of a segment of size bytes, calling fn with
// each payload and its offset in the file. It returns a *tornError when
// the file ends with anything but whole chunks, and fn's first error.
func readChunks(f io.ReaderAt, size int64, fn func(off int64, payload []byte) error) error {
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 1<<20)
	magic := make([]byte, len(walMagic))
	if _, err := io.ReadFull(r, magic); err != nil {
		return &tornError{0, "no magic"}
	}
	if string(magic) != walMagic {
		return fmt.Errorf("not a WAL segment: %w", ErrCorrupt)
	}
	off := int64(len(walMagic))
	var head [chunkHeader]byte
	var payload []byte
	for off < size {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return &tornError{off, "a chunk's header cut short"}
		}
		n := int64(binary.LittleEndian.Uint32(head[:]))
		if n > maxChunk || n > size-off-chunkHeader {
			return &tornError{off, fmt.Sprintf("a chunk of %d bytes cut short", n)}
		}
		if int64(cap(payload)) < n {
			payload = make([]byte, n)
		}
		payload = payload[:n]
		if _, err := io.ReadFull(r, payload); err != nil {
			return err
		}
		if checksum(payload) != binary.LittleEndian.Uint32(head[4:]) {
			return &tornError{off, "a chunk's checksum does not match"}
		}
		if err := fn(off+chunkHeader, payload); err != nil {
			return fmt.Errorf("chunk at offset %d: %w", off, err)
		}
		off += chunkHeader + n
	}
	return nil
}

// isTorn reports whether err is a *tornError, and returns it.
func isTorn(err error) (*tornError, bool) {
	var t *tornError
	ok := errors.As(err, &t)
	return t, ok
}

// The records of a chunk's payload. Parts, header templates and series
// are numbered, by kind, in the order their records come in the segment;
// later records of the segment refer to them by number.
const (
	recSeries  byte = iota + 1 // labels
	recPart                    // kind, canonical encoding
	recHeader                  // canonical encoding of a header template
	recProfile                 // see walProfile
	recDrop                    // DropBefore: Unix nanoseconds of its day
)

// A walProfile is a profile record: its series, times, header template
// and ID, and where its samples are in the segment (rows numbered by the
// segment).
type walProfile struct {
	series                    uint32
	time, timeNanos, duration int64
	header                    uint32
	id                        uint64
	off                       int64 // in the file
	n                         int32
}

func (b *buf) walProfile(p *walProfile, samples []byte) {
	b.byte(recProfile)
	b.uint(uint64(p.series))
	b.int(p.time)
	b.int(p.timeNanos - p.time)
	b.int(p.duration)
	b.uint(uint64(p.header))
	b.u64(p.id)
	b.bytes(samples)
}

// A walVisitor is told the records of a payload.
type walVisitor interface {
	series(labels store.Labels) error
	part(k kind, enc []byte) error
	header(enc []byte) error
	profile(p *walProfile, samples []byte) error
	drop(day int64) error
}

// readRecords tells v the records of payload, which begins at offset
// base of its file.
func readRecords(payload []byte, base int64, v walVisitor) error {
	r := reader{b: payload}
	for len(r.b) > 0 && r.err == nil {
		var err error
		switch tag := r.byte(); tag {
		case recSeries:
			if ls := r.labels(); r.err == nil {
				err = v.series(ls)
			}
		case recPart:
			k := kind(r.byte())
			enc := r.bytes()
			if k >= numKinds && r.err == nil {
				r.failf("part of unknown kind %d", k)
			}
			if r.err == nil {
				err = v.part(k, enc)
			}
		case recHeader:
			if enc := r.bytes(); r.err == nil {
				err = v.header(enc)
			}
		case recProfile:
			err = readProfileRecord(&r, payload, base, v)
		case recDrop:
			if day := r.int(); r.err == nil {
				err = v.drop(day)
			}
		default:
			r.failf("record of unknown type %d", tag)
		}
		if err != nil {
			return err
		}
	}
	return r.check("WAL record")
}

func readProfileRecord(r *reader, payload []byte, base int64, v walVisitor) error {
	p := &walProfile{series: uint32(r.ordinal(1<<32-1, "series")), time: r.int()}
	p.timeNanos = p.time + r.int()
	p.duration = r.int()
	p.header = uint32(r.ordinal(1<<32-1, "header"))
	p.id = r.u64()
	samples := r.bytes()
	if r.err != nil {
		return nil
	}
	p.off = base + int64(len(payload)-len(r.b)-len(samples))
	p.n = int32(len(samples))
	return v.profile(p, samples)
}
