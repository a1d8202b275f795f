package profiles

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestSourceFile: a regular file opened with Open can be read in parts,
// at its size; standard input and a file over MaxBytes cannot.
func TestSourceFile(t *testing.T) {
	want := []byte("go 1.25 trace\x00\x00\x00and then some")
	name := filepath.Join(t.TempDir(), "trace.out")
	if err := os.WriteFile(name, want, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := Open(context.Background(), name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	f, size, ok := src.File()
	if !ok || size != int64(len(want)) {
		t.Fatalf("File() = %d, %v; want the file at %d bytes", size, ok, len(want))
	}
	got, err := io.ReadAll(io.NewSectionReader(f, 0, size))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("read %q, %v; want %q", got, err, want)
	}
	small, err := Open(context.Background(), name, Options{MaxBytes: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if _, _, ok := small.File(); ok {
		t.Errorf("a file over MaxBytes is offered to be read in parts")
	}
	in, err := Open(context.Background(), "-", Options{Stdin: bytes.NewReader(want)})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if _, _, ok := in.File(); ok {
		t.Errorf("standard input is offered to be read in parts")
	}
}
