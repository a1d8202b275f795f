package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.txt")
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
	checkOnly(t, dir, "out.txt")
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
	if err == nil || !strings.Contains(err.Error(), plain) || !strings.HasSuffix(err.Error(), "not a directory") {
		t.Fatalf("Create under a file: %v", err)
	}
	_, err = CreateAll(filepath.Join(plain, "out.txt"))
	if err == nil || !strings.Contains(err.Error(), "cannot create directory "+plain) || !strings.HasSuffix(err.Error(), "not a directory") {
		t.Fatalf("CreateAll under a file: %v", err)
	}
}

// TestMissingDirectory checks that Write does not invent directories: a
// typo in -o is an error naming the directory, not a new tree.
func TestMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	err := Write(filepath.Join(missing, "out.txt"), func(w io.Writer) error { return nil })
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "directory "+missing+" does not exist") {
		t.Fatalf("Write into a missing directory: %v; want an error naming %s", err, missing)
	}
	checkOnly(t, dir)

	// CreateAll creates it, for callers that promise to.
	f, err := CreateAll(filepath.Join(missing, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	checkOnly(t, missing, "out.txt")
}

// TestSymlink checks that writing through a symbolic link replaces its
// target and keeps the link, also for a relative link and a chain.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	rel, chain := filepath.Join(sub, "rel"), filepath.Join(dir, "chain")
	if err := os.Symlink(filepath.Join("..", "real.txt"), rel); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(rel, chain); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{rel, chain} {
		if err := Write(link, func(w io.Writer) error {
			_, err := io.WriteString(w, "via "+link)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symbolic link: %v %v", link, fi.Mode(), err)
		}
		if data, _ := os.ReadFile(real); string(data) != "via "+link {
			t.Errorf("target holds %q after writing through %s", data, link)
		}
	}
	checkOnly(t, dir, "chain", "real.txt", "sub")

	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("new.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "new.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("writing through a dangling link: target %v, %v", fi, err)
	}
}

// TestDirectoryDestination checks that a directory is refused, not
// replaced.
func TestDirectoryDestination(t *testing.T) {
	dir := t.TempDir()
	err := Write(dir, func(w io.Writer) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Write to a directory: %v", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s is no longer a directory: %v", dir, err)
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
