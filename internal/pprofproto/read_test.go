package pprofproto

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"
)

// zeros is an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadAllBounded checks that an endless input is refused after
// allocating the limit and no more, where io.ReadAll doubles past it.
func TestReadAllBounded(t *testing.T) {
	const limit = 32 << 20
	var err error
	alloc := allocated(func() { _, err = ReadAll(zeros{}, -1, Limit(limit)) })
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("ReadAll(endless) = %v; want ErrTooLarge", err)
	}
	if alloc > limit+1<<20 {
		t.Errorf("refusing an endless input allocated %d bytes; want at most the limit, %d, and change", alloc, limit)
	}
}

// TestReadAllHint checks that input of the hinted size is read into one
// buffer, not copied, and that a wrong hint still gives the input.
func TestReadAllHint(t *testing.T) {
	data := bytes.Repeat([]byte("profile "), 1<<20)
	var got []byte
	var err error
	alloc := allocated(func() { got, err = ReadAll(bytes.NewReader(data), int64(len(data)), Limit(-1)) })
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll = %d bytes, %v; want the %d bytes", len(got), err, len(data))
	}
	if alloc > uint64(len(data))+64<<10 {
		t.Errorf("reading %d bytes with their size as the hint allocated %d", len(data), alloc)
	}
	for _, hint := range []int64{-1, 0, 1, 100, int64(len(data)) - 1, int64(len(data)) + 1, 10 * int64(len(data))} {
		got, err := ReadAll(iotest.HalfReader(bytes.NewReader(data)), hint, Limit(int64(len(data))))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("hint %d: ReadAll = %d bytes, %v; want the %d bytes", hint, len(got), err, len(data))
		}
	}
}

// TestReadAllErrors checks that a reader's error, io.ErrUnexpectedEOF
// included, is returned as is.
func TestReadAllErrors(t *testing.T) {
	q := Limit(1 << 20)
	r := io.MultiReader(bytes.NewReader(make([]byte, 100<<10)), iotest.ErrReader(io.ErrUnexpectedEOF))
	if _, err := ReadAll(r, -1, q); err != io.ErrUnexpectedEOF {
		t.Errorf("ReadAll = %v; want io.ErrUnexpectedEOF", err)
	}
}

// FuzzReadAll checks ReadAll against io.ReadAll for any input, hint,
// limit and read size: the same bytes, or ErrTooLarge exactly when the
// input exceeds the limit, after taking at most the limit.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte("hello, profile"), int64(-1), int64(100), uint8(3))
	f.Add([]byte("hello, profile"), int64(14), int64(14), uint8(0))
	f.Add([]byte("hello, profile"), int64(20), int64(13), uint8(1))
	f.Add(bytes.Repeat([]byte{0}, 200<<10), int64(1000), int64(150<<10), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, hint, limit int64, step uint8) {
		hint = min(hint, 1<<24)
		var r io.Reader = bytes.NewReader(data)
		if step > 0 {
			r = &stepReader{r: r, step: int(step)}
		}
		q := Limit(limit)
		got, err := ReadAll(r, hint, q)
		if limit >= 0 && int64(len(data)) > limit {
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%d bytes, limit %d: err %v; want ErrTooLarge", len(data), limit, err)
			}
			return
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%d bytes, limit %d, hint %d: got %d bytes, %v", len(data), limit, hint, len(got), err)
		}
		if limit >= 0 {
			if left := q.Take(limit + 1); left > limit-int64(len(data)) {
				t.Fatalf("after reading %d bytes, %d left of %d", len(data), left, limit)
			}
		}
	})
}

// stepReader reads at most step bytes at a time.
type stepReader struct {
	r    io.Reader
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	return s.r.Read(p[:min(len(p), s.step)])
}
