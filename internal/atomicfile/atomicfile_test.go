package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "out.txt")
	if err := Write(name, func(w io.Writer) error {
		_, err := io.WriteString(w, "hello")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(name)
	if err != nil || string(data) != "hello" {
		t.Fatalf("read back %q, %v", data, err)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	checkOnly(t, filepath.Dir(name), "out.txt")
}

// TestWriteFailureKeepsOld checks that a failed write leaves what the
// destination held and no temporary file.
func TestWriteFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(name, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(name, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "writing "+name) {
		t.Fatalf("error %v; want it to name %s and wrap the cause", err, name)
	}
	if data, _ := os.ReadFile(name); string(data) != "old" {
		t.Errorf("destination holds %q after a failed write, want the old content", data)
	}
	checkOnly(t, dir, "out.txt")
}

func TestCreateUnwritable(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Create(filepath.Join(plain, "out.txt"))
	if err == nil || !strings.Contains(err.Error(), "cannot create directory "+plain) || !strings.HasSuffix(err.Error(), "not a directory") {
		t.Fatalf("Create under a file: %v", err)
	}
}

func TestAbort(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("never")
	f.Abort()
	checkOnly(t, dir)
}

// checkOnly checks that dir holds exactly the files named.
func checkOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}
