package pprofproto

import "io"

// A Quota grants the bytes a reader may allocate. ReadAll takes from it
// before each allocation, so that several readers sharing one Quota
// allocate no more than it together. Nothing is given back: memory a
// reader dropped is still held until the garbage collector runs, so a
// Quota bounds what is held at the worst moment. Implementations must be
// safe for concurrent use if readers share them.
type Quota interface {
	// Take grants up to n bytes and returns how many it granted: n, or
	// fewer (0 when nothing is left).
	Take(n int64) int64
}

// Limit returns a Quota of n bytes for one reader; n < 0 means no limit.
func Limit(n int64) Quota { return &limit{left: n} }

type limit struct{ left int64 }

func (l *limit) Take(n int64) int64 {
	if l.left < 0 {
		return n
	}
	n = min(n, l.left)
	l.left -= n
	return n
}

// Chunk sizes of ReadAll's buffer when the size is not known beforehand:
// the first is small, each next one as large as all before it, up to
// maxChunk, so that what is allocated beyond the data is at most one
// chunk.
const (
	firstChunk = 64 << 10
	maxChunk   = 16 << 20
)

// ReadAll reads r to its end into one buffer, taking every byte it
// allocates from q first: input longer than q grants is ErrTooLarge, after
// allocating no more than q granted. Unlike io.ReadAll or bytes.Buffer,
// which double their buffer and copy (holding up to three times the data
// at once, past any limit), ReadAll fills fixed chunks and joins them at
// the end (that copy is not taken from q: it is made only on success, and
// the chunks are garbage after it). If hint is the exact size (a file's, a
// Content-Length, a gzip trailer's), the data is read into a single buffer
// of that size and not copied.
func ReadAll(r io.Reader, hint int64, q Quota) ([]byte, error) {
	var (
		chunks [][]byte
		total  int64
		next   [1]byte // a byte read past a full chunk to look for the end
		carry  bool    // next holds a byte to store
	)
	size := int64(firstChunk)
	if hint > 0 {
		size = hint
	}
	for {
		n := q.Take(size)
		if n == 0 {
			if err := atEnd(r, carry); err != nil {
				return nil, err
			}
			break
		}
		buf := make([]byte, n)
		off := 0
		if carry {
			buf[0], off, carry = next[0], 1, false
		}
		m, err := fill(r, buf[off:])
		m += off
		total += int64(m)
		if err == io.EOF {
			chunks = append(chunks, buf[:m])
			break
		} else if err != nil {
			return nil, err
		}
		chunks = append(chunks, buf)
		// The chunk is full: read one byte more to see whether the input
		// ends here, so that data of exactly the hinted size fills one
		// buffer.
		if k, err := fill(r, next[:]); k == 0 && err == io.EOF {
			break
		} else if k == 0 {
			return nil, err
		}
		carry = true
		size = min(max(total, firstChunk), maxChunk)
	}
	return join(chunks, total), nil
}

// atEnd returns nil if r, whose quota is spent, has no more data: none
// held back (carry) and none left to read; else ErrTooLarge, or r's error.
func atEnd(r io.Reader, carry bool) error {
	if carry {
		return ErrTooLarge
	}
	var b [1]byte
	switch k, err := fill(r, b[:]); {
	case k > 0:
		return ErrTooLarge
	case err == io.EOF:
		return nil
	default:
		return err
	}
}

// fill reads into buf until it is full (err nil) or r fails: io.EOF
// means the input ended, after n bytes. Unlike io.ReadFull, it passes on
// any other error as is, io.ErrUnexpectedEOF of a truncated gzip stream
// included.
func fill(r io.Reader, buf []byte) (n int, err error) {
	for n < len(buf) {
		var k int
		k, err = r.Read(buf[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// join returns the chunks as one slice: the only chunk itself, or a copy.
func join(chunks [][]byte, total int64) []byte {
	switch len(chunks) {
	case 0:
		return []byte{}
	case 1:
		if c := chunks[0]; cap(c) <= 2*len(c) || cap(c) <= firstChunk {
			return c
		}
		// A hint far above the size (a gzip trailer can lie): keep no
		// more memory than the data needs.
	}
	out := make([]byte, 0, total)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil // let the collector have it while the rest is copied
	}
	return out
}
