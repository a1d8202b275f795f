package profiles

import (
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The -max_bytes of these tests, and how much more than it refusing an
// input may allocate.
const (
	testCap    = 100 << 20
	testMargin = 16 << 20
)

// writeBomb writes a file of gzip inflating to size zero bytes, one
// member whose trailer tells the truth.
func writeBomb(t *testing.T, name string, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range size >> 20 {
		zw.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadAllocating loads sources with a cap of testCap and returns the error
// and the bytes allocated meanwhile.
func loadAllocating(t *testing.T, sources ...string) (error, uint64) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := Load(context.Background(), sources, Options{MaxBytes: testCap})
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatalf("Load(%v) returned a profile of %d samples; want an error", sources, len(p.Sample))
	}
	t.Log(err)
	return err, after.TotalAlloc - before.TotalAlloc
}

// checkBounded checks that err is a one-line ErrTooLarge containing want,
// after allocating at most the cap and the margin.
func checkBounded(t *testing.T, err error, alloc uint64, want string) {
	t.Helper()
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q; want ErrTooLarge saying %q", err, want)
	}
	if alloc > testCap+testMargin {
		t.Errorf("refusing the input allocated %d MiB; want at most the cap, %d MiB, and %d MiB", alloc>>20, testCap>>20, testMargin>>20)
	}
}

// TestBombBounded loads a file of gzip that inflates to twice the cap:
// the bytes inflated are refused at the cap, without the buffer doubling
// that took 3 times the cap.
func TestBombBounded(t *testing.T) {
	bomb := writeBomb(t, "bomb.pb.gz", 2*testCap)
	err, alloc := loadAllocating(t, bomb)
	checkBounded(t, err, alloc, bomb+": profile too large: inflates to more than 100 MiB (the limit")
}

// TestDevZeroBounded loads /dev/zero, which never ends and has no size.
func TestDevZeroBounded(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	err, alloc := loadAllocating(t, "/dev/zero")
	checkBounded(t, err, alloc, "/dev/zero: profile too large: is more than 100 MiB (the limit")
}

// TestEndlessBodyBounded loads from a real server whose body never ends
// and has no Content-Length.
func TestEndlessBodyBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		zeros := make([]byte, 64<<10)
		for {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	u := srv.URL + "/debug/pprof/heap"
	err, alloc := loadAllocating(t, u)
	checkBounded(t, err, alloc, u+": profile too large: is more than 100 MiB (the limit")
}

// TestBombsShareBudget loads four bombs, each within the cap alone but
// not together: the cap holds for them jointly, while they load at once.
func TestBombsShareBudget(t *testing.T) {
	var bombs []string
	for _, name := range []string{"a.pb.gz", "b.pb.gz", "c.pb.gz", "d.pb.gz"} {
		bombs = append(bombs, writeBomb(t, name, 40<<20))
	}
	err, alloc := loadAllocating(t, bombs...)
	checkBounded(t, err, alloc, "more than 100 MiB (the limit for all sources together")
}
