// Command hostile makes the hostile inputs that scripts/hostile/ feeds to
// perflab: gzip bombs, an endless HTTP body, a profile with one very deep
// stack, profiles naming hostile source files and binaries, and those
// binaries.
//
//	hostile bomb SIZE >bomb.gz        gzip of SIZE zero bytes (K, M, G suffixes)
//	hostile serve                     serve an endless body on 127.0.0.1; prints the URL
//	hostile deep N >deep.pb.gz        a profile with one sample of an N-frame stack
//	hostile source FILE >x.pb.gz      a profile whose only function is in FILE
//	hostile mapping FILE >x.pb.gz     a profile whose main.main, at 0x401000, is in a mapping of FILE
//	hostile unsymbolized FILE >x.pb.gz  the same with an address only, for symbolization
//	hostile objbombs DECLARED INFLATED DIR
//	                                  object files whose one section is compressed and declares
//	                                  DECLARED bytes, inflating to INFLATED zeros: DIR/elf.text,
//	                                  elf.gopclntab, elf.symtab, elf.debug_info, elf.zdebug_info,
//	                                  macho__debug_info, pe.debug_info
//	hostile sparse SIZE FILE          an ELF FILE whose .text is a hole of SIZE bytes
package main

import (
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("usage: hostile bomb SIZE | serve | deep N | source FILE | mapping FILE | unsymbolized FILE | objbombs DECLARED INFLATED DIR | sparse SIZE FILE")
	}
	switch {
	case args[0] == "bomb" && len(args) == 2:
		n, err := parseSize(args[1])
		if err != nil {
			return err
		}
		return bomb(n)
	case args[0] == "serve":
		return serve()
	case args[0] == "deep" && len(args) == 2:
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		return deep(n).Write(os.Stdout)
	case args[0] == "source" && len(args) == 2:
		return source(args[1]).Write(os.Stdout)
	case args[0] == "mapping" && len(args) == 2:
		return mapping(args[1], true).Write(os.Stdout)
	case args[0] == "unsymbolized" && len(args) == 2:
		return mapping(args[1], false).Write(os.Stdout)
	case args[0] == "objbombs" && len(args) == 4:
		return objBombs(args[1], args[2], args[3])
	case args[0] == "sparse" && len(args) == 3:
		n, err := parseSize(args[1])
		if err != nil {
			return err
		}
		return objfiletest.WriteELF(args[2], []objfiletest.Section{{Name: ".text", Sparse: uint64(n), Addr: 0x401000}})
	}
	return fmt.Errorf("bad arguments %q", args)
}

func parseSize(s string) (int64, error) {
	factor := int64(1)
	for suffix, f := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, factor = strings.TrimSuffix(s, suffix), f
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * factor, err
}

// bomb writes one gzip member inflating to n zero bytes; its trailer
// tells the truth (modulo 4 GiB), as a real bomb's does.
func bomb(n int64) error {
	zw, _ := gzip.NewWriterLevel(os.Stdout, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, int64(len(zeros)))
		if _, err := zw.Write(zeros[:k]); err != nil {
			return err
		}
		n -= k
	}
	return zw.Close()
}

// serve answers every request with an endless body of zeros, and no
// Content-Length, until the client goes away.
func serve() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/debug/pprof/heap\n", ln.Addr())
	os.Stdout.Close() // the script reads the URL, then waits for nothing more
	zeros := make([]byte, 64<<10)
	return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}))
}

// deep returns a CPU profile with one sample whose stack is n frames of
// distinct functions.
func deep(n int) *profile.Profile {
	p := base()
	s := &profile.Sample{Value: []int64{1, 10_000_000}}
	for i := range n {
		fn := &profile.Function{ID: uint64(i + 1), Name: fmt.Sprintf("main.f%d", i), SystemName: fmt.Sprintf("main.f%d", i), Filename: "/src/deep.go"}
		loc := &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 + i), Mapping: p.Mapping[0], Line: []profile.Line{{Function: fn, Line: int64(i + 1)}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		s.Location = append(s.Location, loc)
	}
	p.Sample = []*profile.Sample{s}
	return p
}

// source returns a CPU profile whose one function is in file.
func source(file string) *profile.Profile {
	p := base()
	fn := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: file, StartLine: 1}
	loc := &profile.Location{ID: 1, Address: 0x1000, Mapping: p.Mapping[0], Line: []profile.Line{{Function: fn, Line: 3}}}
	p.Function = []*profile.Function{fn}
	p.Location = []*profile.Location{loc}
	p.Sample = []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1, 10_000_000}}}
	return p
}

func base() *profile.Profile {
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Mapping:    []*profile.Mapping{{ID: 1, Start: 0x1000, Limit: 0x1000_0000, File: "/bin/hostile", HasFunctions: true}},
	}
}

// mapping returns a CPU profile whose one sample is main.main at 0x401000
// in a mapping of file (with no function, when symbolized is false: an
// address for perflab to symbolize from file).
func mapping(file string, symbolized bool) *profile.Profile {
	p := source("/src/main.go")
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x500000, File: file, HasFunctions: symbolized}
	p.Mapping = []*profile.Mapping{m}
	p.Location[0].Mapping, p.Location[0].Address = m, 0x401000
	if !symbolized {
		p.Location[0].Line, p.Function = nil, nil
	}
	return p
}

// objBombs writes the object files the usage lists into dir.
func objBombs(declaredArg, inflatedArg, dir string) error {
	declared, err := parseSize(declaredArg)
	if err != nil {
		return err
	}
	inflated, err := parseSize(inflatedArg)
	if err != nil {
		return err
	}
	z := objfiletest.Zeros(uint64(inflated))
	zlib := func(name string) []objfiletest.Section {
		return []objfiletest.Section{{Name: name, Data: objfiletest.ZLIB(uint64(declared), z)}}
	}
	files := []struct {
		name  string
		write func(string, []objfiletest.Section) error
		secs  []objfiletest.Section
	}{
		{"macho__debug_info", objfiletest.WriteMachO, zlib("__debug_info")},
		{"pe.debug_info", objfiletest.WritePE, zlib(".debug_info")},
	}
	for _, name := range []string{".text", ".gopclntab", ".symtab", ".debug_info", ".zdebug_info"} {
		files = append(files, struct {
			name  string
			write func(string, []objfiletest.Section) error
			secs  []objfiletest.Section
		}{"elf" + name, objfiletest.WriteELF, elfBomb(name, uint64(declared), z)})
	}
	for _, f := range files {
		if err := f.write(filepath.Join(dir, f.name), f.secs); err != nil {
			return err
		}
	}
	return nil
}

// elfBomb returns the sections of an ELF file whose section name is
// compressed (SHF_COMPRESSED, or "ZLIB" for .zdebug), declaring declared
// bytes and holding z, after what perflab reads before it: a one-byte
// .text, a Go line table, the string table of a symbol table.
func elfBomb(name string, declared uint64, z []byte) []objfiletest.Section {
	bomb := objfiletest.Section{Name: name, Data: objfiletest.ELFCompressed(declared, z), Compressed: true}
	if strings.HasPrefix(name, ".zdebug") {
		bomb = objfiletest.Section{Name: name, Data: objfiletest.ZLIB(declared, z)}
	}
	var secs []objfiletest.Section
	if name != ".text" {
		secs = append(secs, objfiletest.Section{Name: ".text", Data: []byte{0xc3}, Addr: 0x401000})
	}
	if name != ".symtab" {
		return append(secs, bomb)
	}
	secs = append(secs, objfiletest.Section{Name: ".gopclntab", Data: make([]byte, 64)})
	bomb.Type, bomb.Link = 2, uint32(len(secs)+2) // SHT_SYMTAB, linked to the .strtab after it
	return append(secs, bomb, objfiletest.Section{Name: ".strtab", Type: 3, Data: []byte{0}})
}
