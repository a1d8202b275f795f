//go:build unix

package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFO checks that a named pipe is written through, not replaced by a
// regular file.
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		// Opening for reading waits for the writer.
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		data, _ := io.ReadAll(f)
		got <- string(data)
	}()
	if err := Write(fifo, func(w io.Writer) error {
		_, err := io.WriteString(w, "through the pipe")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the reader got nothing in 20 s")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a named pipe: %v %v", fifo, fi.Mode(), err)
	}
	checkOnly(t, dir, "fifo")
}

// TestDevNull checks that writing to the system's /dev/null leaves it a
// device, and, for root, that a null device made with mknod stays one (as
// root, the old code replaced it with a regular file).
func TestDevNull(t *testing.T) {
	names := []string{}
	if isCharDevice("/dev/null") {
		names = append(names, "/dev/null")
	} else {
		t.Logf("/dev/null is not a character device on this machine; not writing to it")
	}
	dir := t.TempDir()
	if os.Getuid() == 0 {
		null := filepath.Join(dir, "null")
		if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, int(mkdev(1, 3))); err != nil {
			t.Logf("mknod: %v", err)
		} else {
			names = append(names, null)
		}
	}
	if len(names) == 0 {
		t.Skip("no character device to write to")
	}
	for _, name := range names {
		if err := Write(name, func(w io.Writer) error {
			_, err := io.WriteString(w, "discarded")
			return err
		}); err != nil {
			t.Fatalf("writing %s: %v", name, err)
		}
		if !isCharDevice(name) {
			t.Errorf("%s is no longer a character device", name)
		}
	}
}

func isCharDevice(name string) bool {
	fi, err := os.Lstat(name)
	return err == nil && fi.Mode()&fs.ModeCharDevice != 0
}

// mkdev encodes a Linux device number.
func mkdev(major, minor uint32) uint64 {
	return uint64(major)<<8 | uint64(minor)
}

// TestProcessStreams checks that /dev/fd/N and /proc/self/fd/N, the names
// behind /dev/stdout, are written in place: to the pipe the descriptor
// holds, or to the regular file the shell opened.
func TestProcessStreams(t *testing.T) {
	for _, prefix := range []string{"/dev/fd/", "/proc/self/fd/"} {
		if _, err := os.Stat(prefix); err != nil {
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprint(prefix, w.Fd())
		if err := Write(name, func(out io.Writer) error {
			_, err := io.WriteString(out, "to the pipe")
			return err
		}); err != nil {
			t.Fatalf("writing %s: %v", name, err)
		}
		w.Close()
		data, _ := io.ReadAll(r)
		r.Close()
		if string(data) != "to the pipe" {
			t.Errorf("writing %s: the pipe got %q", name, data)
		}

		file := filepath.Join(t.TempDir(), "stdout.txt")
		f, err := os.Create(file)
		if err != nil {
			t.Fatal(err)
		}
		name = fmt.Sprint(prefix, f.Fd())
		err = Write(name, func(out io.Writer) error {
			_, err := io.WriteString(out, "to the file")
			return err
		})
		f.Close()
		if data, _ := os.ReadFile(file); err != nil || string(data) != "to the file" {
			t.Errorf("writing %s: %v; the file holds %q", name, err, data)
		}
	}
}

// TestUmask checks that a new file gets 0666 less the umask, and that a
// replaced file keeps its mode whatever the umask.
func TestUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	write := func(name string) {
		t.Helper()
		if err := Write(name, func(w io.Writer) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	checkMode := func(name string, want fs.FileMode) {
		t.Helper()
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s has mode %v (%v), want %v", filepath.Base(name), fi.Mode().Perm(), err, want)
		}
	}
	fresh := filepath.Join(dir, "new")
	write(fresh)
	checkMode(fresh, 0o600)

	syscall.Umask(0o022)
	write(filepath.Join(dir, "new022"))
	checkMode(filepath.Join(dir, "new022"), 0o644)

	// Existing files keep their mode, including bits the umask removes.
	for _, mode := range []fs.FileMode{0o600, 0o664, 0o640} {
		name := filepath.Join(dir, "old"+strings.TrimPrefix(mode.String(), "-"))
		if err := os.WriteFile(name, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(name, mode); err != nil {
			t.Fatal(err)
		}
		write(name)
		checkMode(name, mode)
	}
}
