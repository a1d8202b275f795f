package pprofproto

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"runtime"
	"testing"
)

func gzipped(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range parts { // one gzip member each
		zw := gzip.NewWriter(&b)
		zw.Write(p)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

func TestGunzip(t *testing.T) {
	a, b := bytes.Repeat([]byte("profile "), 1000), []byte("second member")
	data := gzipped(t, a, b)
	got, err := Gunzip(data, -1)
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(data))
	want, _ := io.ReadAll(zr)
	if !bytes.Equal(got, want) || len(want) != len(a)+len(b) {
		t.Fatalf("Gunzip gave %d bytes, compress/gzip %d", len(got), len(want))
	}
	if _, err := Gunzip(data, int64(len(want))); err != nil {
		t.Fatalf("limit = size: %v", err)
	}
}

// TestGunzipBomb checks that a gzip bomb is refused at the limit, without
// decompressing it all.
func TestGunzipBomb(t *testing.T) {
	bomb := gzipped(t, make([]byte, 16<<20)) // 16 MiB of zeros in ~16 KiB
	if len(bomb) > 1<<20 {
		t.Fatalf("bomb is %d bytes", len(bomb))
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Gunzip(bomb, 1<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Gunzip(bomb, 1 MiB) = %v, want ErrTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("refusing the bomb allocated %d bytes; want well under its 16 MiB", alloc)
	}
	for _, bad := range [][]byte{{0x1f, 0x8b}, bomb[:len(bomb)/2], append(bytes.Clone(bomb[:20]), 0xff)} {
		if _, err := Gunzip(bad, -1); err == nil {
			t.Errorf("Gunzip(%d corrupt bytes) succeeded", len(bad))
		}
	}
}
