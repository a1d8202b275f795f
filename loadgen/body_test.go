package loadgen

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadBodyFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	want := bytes.Repeat([]byte(`{"a":1}`), 1000)
	if err := os.WriteFile(small, want, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadBodyFile(small); err != nil || !bytes.Equal(got, want) {
		t.Errorf("ReadBodyFile(%s) = %d bytes, %v; want the %d written", small, len(got), err, len(want))
	}
	// A sparse file one byte over the limit: refused from its size, unread.
	big := filepath.Join(dir, "big")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxBodySize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tt := range []struct {
		path string
		is   error
		msg  string
	}{
		{big, ErrBodyTooLarge, big + ": request body too large: at most 256 MiB"},
		{dir, ErrNotRegular, dir + ": not a regular file (a directory)"},
		{filepath.Join(dir, "missing"), os.ErrNotExist, "missing"},
	} {
		_, err := ReadBodyFile(tt.path)
		if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ReadBodyFile(%s) = %v; want %v, %q", tt.path, err, tt.is, tt.msg)
		}
	}
}
