package namedfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/namedfile"
)

func TestCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no /proc, /sys or /dev")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "link.go")
	if err := os.Symlink("/proc/self/environ", link); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(dir, "d")
	if err := os.Symlink("/dev", dirLink); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{
		"/proc/self/environ", "/proc", "/sys/kernel/notes", "/dev/stdin", "/dev/fd/0",
		"/tmp/../proc/self/cmdline", "//proc//self/environ", link, filepath.Join(dirLink, "zero"),
	} {
		if err := namedfile.Check(name); !errors.Is(err, namedfile.ErrSystemPath) {
			t.Errorf("Check(%q) = %v, want ErrSystemPath", name, err)
		}
	}
	for _, name := range []string{"/process.go", "/devices/x.go", "/src/proc/x.go", filepath.Join(dir, "missing.go"), "main.go"} {
		if err := namedfile.Check(name); err != nil {
			t.Errorf("Check(%q) = %v, want nil", name, err)
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x.go")
	if err := os.WriteFile(name, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := namedfile.ReadFile(name, 10, "a source file"); err != nil || string(data) != "package x\n" {
		t.Errorf("ReadFile = %q, %v", data, err)
	}
	_, err := namedfile.ReadFile(name, 9, "a source file")
	if !errors.Is(err, namedfile.ErrTooLarge) || err.Error() != "read "+name+": larger than 9 bytes, the limit for a source file" {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := namedfile.ReadFile(dir, 1<<20, "a source file"); !errors.Is(err, namedfile.ErrNotRegular) {
		t.Errorf("a directory: %v, want ErrNotRegular", err)
	}
	if _, err := namedfile.ReadFile(filepath.Join(dir, "missing"), 1<<20, "a source file"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}

// sizeLie is a file's information with another size, as a pseudo-file's
// or a file's that changed between stat and read.
type sizeLie struct {
	fs.FileInfo
	size int64
}

func (s sizeLie) Size() int64 { return s.size }

func TestReadAllLengthDiffers(t *testing.T) {
	name := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(name, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{0, 9, 11} {
		f, info, err := namedfile.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		_, err = namedfile.ReadAll(f, sizeLie{info, size}, 1<<20, "a source file")
		f.Close()
		if !errors.Is(err, namedfile.ErrChanged) {
			t.Errorf("10 bytes read where the size says %d: %v, want ErrChanged", size, err)
		}
	}
}

// TestReadProcFile: a procfs file read through a name Check cannot see
// through (here the open file's own descriptor, as another mount of
// /proc would be) is refused by its length.
func TestReadProcFile(t *testing.T) {
	f, err := os.Open("/proc/self/cmdline")
	if err != nil {
		t.Skip("no /proc")
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		t.Skipf("procfs file not regular: %v", err)
	}
	start := time.Now()
	if _, err := namedfile.ReadAll(f, info, 1<<20, "a source file"); !errors.Is(err, namedfile.ErrChanged) {
		t.Errorf("/proc/self/cmdline: %v after %v, want ErrChanged", err, time.Since(start))
	}
}
