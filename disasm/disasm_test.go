package disasm

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/objfile"
)

// buildHello builds testdata/hello for goarch with extra ldflags.
func buildHello(t testing.TB, goarch string, ldflags string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "hello-"+goarch)
	cmd := exec.Command("go", "build", "-ldflags="+ldflags, "-o", bin, "./testdata/hello")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestOpenErrors checks each cause Open reports, and that the message
// names the binary on one line.
func TestOpenErrors(t *testing.T) {
	amd := buildHello(t, "amd64", "")
	data, err := os.ReadFile(amd)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(t.TempDir(), "truncated")
	if err := os.WriteFile(truncated, data[:4096], 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(t.TempDir(), "text")
	if err := os.WriteFile(text, []byte("not a binary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{buildHello(t, "amd64", "-s -w"), ErrStripped},
		{buildHello(t, "riscv64", ""), ErrArch},
		{text, ErrUnrecognized},
		{filepath.Join(t.TempDir(), "missing"), fs.ErrNotExist},
		{truncated, nil}, // any error
	} {
		_, err := Open(c.path)
		var be *BinaryError
		if err == nil || !errors.As(err, &be) || be.Path != c.path || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("Open(%s) = %v; want a *BinaryError wrapping %v", c.path, err, c.want)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "binary "+c.path+": ") || strings.Contains(msg, "\n") {
			t.Errorf("message %q: want one line starting with the binary's path", msg)
		}
	}
}

// TestBinaryFacts checks what Open reads from real amd64 and arm64
// binaries: the build ID, the load address, symbols whose code decodes
// that decode and whose line table names the source.
func TestBinaryFacts(t *testing.T) {
	for _, goarch := range []string{"amd64", "arm64"} {
		b, err := Open(buildHello(t, goarch, ""))
		if err != nil {
			t.Fatal(err)
		}
		if b.GOARCH != goarch || len(b.BuildID) != 40 {
			t.Errorf("%s: GOARCH %q, build ID %q", goarch, b.GOARCH, b.BuildID)
		}
		if _, ok := b.LoadAddress(); !ok {
			t.Errorf("%s: no load address", goarch)
		}
		syms := b.Symbols(func(n string) bool { return n == "main.square" })
		if len(syms) != 1 {
			t.Fatalf("%s: main.square: %v", goarch, syms)
		}
		s := syms[0]
		var n int
		b.Decode(s.Addr, s.Addr+s.Size, func(in Inst) {
			n++
			// arm64 functions end in zero padding, which decodes as "?".
			if in.Text == "?" && n == 1 || !strings.HasSuffix(in.File, "main.go") || in.Line != 7 && in.Line != 6 {
				t.Errorf("%s: %#x: %q at %s:%d", goarch, in.Addr, in.Text, in.File, in.Line)
			}
			if name, base := b.lookup(in.Addr); name != "main.square" || base != s.Addr {
				t.Errorf("%s: lookup(%#x) = %s, %#x", goarch, in.Addr, name, base)
			}
		})
		if n < 2 {
			t.Errorf("%s: %d instructions in main.square", goarch, n)
		}
		if file, line, fn := b.Line(s.Addr); fn != "main.square" || line != 7 || filepath.Base(file) != "main.go" {
			t.Errorf("%s: Line(main.square) = %s:%d %s", goarch, file, line, fn)
		}
	}
}

// FuzzRead feeds arbitrary bytes to the object-file reader: it must fail
// cleanly or return a binary whose symbols, lines and code can be walked.
// The checked-in seeds are truncated headers of real binaries (Go and C
// ELF, PE and Mach-O stubs) and elf-tiny-pclntab, a 1 KB ELF that Open
// accepts, made by:
//
//	echo 'void _start(void) { for (;;) {} } int f(int x) { return x * 3 + 1; }' >tiny.c
//	gcc -O1 -nostdlib -static -Wl,-N -fno-asynchronous-unwind-tables -o tiny tiny.c
//	objcopy --remove-section .comment --add-section .gopclntab=PCLN tiny tiny-pclntab
//
// where PCLN is an empty Go 1.20 line table: the header 0xfffffff1, 0, 0,
// 1, 8, then eight little-endian uint64s 0, 0, 0, 72, 72, 72, 72, 72, then
// 16 zero bytes.
func FuzzRead(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Add([]byte("MZ"))
	f.Add([]byte("\xcf\xfa\xed\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		f, err := objfile.NewFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		b, err := read(f)
		if err != nil {
			return
		}
		for i, s := range b.Symbols(nil) {
			if i == 8 {
				break
			}
			b.Line(s.Addr)
			n := 0
			b.Decode(s.Addr, s.Addr+min(s.Size, 256), func(Inst) { n++ })
		}
	})
}

// TestLinesMatchGosym checks that Decode's forward walk of the line table
// gives, for every instruction of every function of real amd64 and arm64
// binaries, what debug/gosym's Table.PCToLine gives.
func TestLinesMatchGosym(t *testing.T) {
	for _, goarch := range []string{"amd64", "arm64"} {
		b, err := Open(buildHello(t, goarch, ""))
		if err != nil {
			t.Fatal(err)
		}
		if b.pcln == nil {
			t.Fatalf("%s: the line table's version is not handled", goarch)
		}
		n, bad := 0, 0
		for _, s := range b.Symbols(nil) {
			b.Decode(s.Addr, s.Addr+s.Size, func(in Inst) {
				n++
				if file, line, _ := b.lines.PCToLine(in.Addr); (file != in.File || line != in.Line) && bad < 10 {
					bad++
					t.Errorf("%s: %#x in %s: %s:%d, gosym %s:%d", goarch, in.Addr, s.Name, in.File, in.Line, file, line)
				}
			})
		}
		if n < 10000 {
			t.Errorf("%s: only %d instructions checked", goarch, n)
		}
	}
}
