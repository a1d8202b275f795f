package objfile

import (
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/perflab/perflab/internal/namedfile"
)

// The bounds on what is read from one object file.
const (
	// MaxHeaderBytes bounds what parsing the headers may read: ELF section
	// and program headers, Mach-O load commands and symbol table, PE
	// headers and COFF symbol table.
	MaxHeaderBytes = 64 << 20
	// MaxSymbolBytes bounds an ELF symbol table and its string table.
	MaxSymbolBytes = 64 << 20
	// MaxSectionBytes bounds any other section: .text, the Go line table,
	// each DWARF section.
	MaxSectionBytes = 256 << 20
	// MaxReadBytes bounds all the sections read from one file together.
	MaxReadBytes = 1 << 30
)

// The causes of Open's and the methods' errors, for errors.Is.
var (
	ErrUnrecognized = errors.New("unrecognized object file (not ELF, Mach-O or PE)")
	ErrTooLarge     = errors.New("object file section over perflab's limit")
)

// A LimitError refuses a section, or the headers, over one of the bounds.
type LimitError struct {
	Section string // "headers" for MaxHeaderBytes
	Size    uint64 // what it holds or declares; 0 if it was not known before reading
	Limit   uint64
	What    string // which limit: "a section", "a symbol table", ...
	Sum     bool   // the limit is on the sum of the sections read, which Size would pass
}

func (e *LimitError) Error() string {
	switch {
	case e.Size == 0:
		return fmt.Sprintf("%s: more than %s, the limit for %s", e.Section, sizeText(e.Limit), e.What)
	case e.Sum:
		return fmt.Sprintf("%s: %s more would pass %s, the limit for %s", e.Section, sizeText(e.Size), sizeText(e.Limit), e.What)
	}
	return fmt.Sprintf("%s: %s, over %s, the limit for %s", e.Section, sizeText(e.Size), sizeText(e.Limit), e.What)
}

// sizeText writes n bytes in GiB, MiB or bytes.
func sizeText(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Is makes a LimitError match ErrTooLarge.
func (e *LimitError) Is(target error) bool { return target == ErrTooLarge }

// A File is an opened object file. Its methods may be called from one
// goroutine at a time.
type File struct {
	Path  string // "" for NewFile's
	close func() error
	r     *budgetReader
	left  uint64 // what MaxReadBytes leaves for sections
	elf   *elf.File
	mach  *macho.File
	pe    *pe.File

	symOnce sync.Once
	syms    []Sym
	symErr  error
}

// Open opens the object file at path, which input named (a profile's
// mapping, a candidate along $PPROF_BINARY_PATH): see the package
// documentation. Its errors name the path.
func Open(path string) (*File, error) {
	f, _, err := namedfile.Open(path)
	if err != nil {
		return nil, err
	}
	return newFile(path, f)
}

// OpenArg is Open for a binary the user named on the command line, which
// may be under /proc (/proc/PID/exe is the way to a running program's
// binary once a new one replaced it); it is still opened without
// blocking, a regular file only, and read within the same bounds.
func OpenArg(path string) (*File, error) {
	f, _, err := namedfile.OpenArg(path)
	if err != nil {
		return nil, err
	}
	return newFile(path, f)
}

func newFile(path string, f *os.File) (*File, error) {
	obj, err := NewFile(f)
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	obj.Path, obj.close = path, f.Close
	return obj, nil
}

// NewFile reads an object file from r, within the same bounds as Open.
func NewFile(r io.ReaderAt) (*File, error) {
	br := &budgetReader{r: r, left: MaxHeaderBytes, limit: &LimitError{Section: "headers", Limit: MaxHeaderBytes, What: "an object file's headers"}}
	obj := &File{r: br, left: MaxReadBytes, close: func() error { return nil }}
	if err := obj.parse(); err != nil {
		return nil, err
	}
	// From here on the sections' own checks bound what is read; the
	// reader's budget is a backstop for reads they do not foresee
	// (compressed bytes come on top of the sizes the sections declare).
	br.left = 2 * MaxReadBytes
	br.limit = &LimitError{Section: "all reads", Limit: br.left, What: "what is read of an object file"}
	return obj, nil
}

// parse tries each format in turn.
func (o *File) parse() (err error) {
	defer func() {
		// debug/* parse hostile files without panicking in general, but a
		// malformed file must never crash perflab.
		if e := recover(); e != nil {
			err = fmt.Errorf("malformed object file: %v", e)
		}
	}()
	if o.elf, err = elf.NewFile(o.r); err == nil {
		return nil
	}
	if o.r.err != nil {
		return o.r.err
	}
	if o.mach, err = macho.NewFile(o.r); err == nil {
		return nil
	}
	if o.r.err != nil {
		return o.r.err
	}
	if o.pe, err = pe.NewFile(o.r); err == nil {
		return nil
	}
	if o.r.err != nil {
		return o.r.err
	}
	return ErrUnrecognized
}

// Close closes the file Open opened.
func (o *File) Close() error { return o.close() }

// Format is "elf", "macho" or "pe".
func (o *File) Format() string {
	switch {
	case o.elf != nil:
		return "elf"
	case o.mach != nil:
		return "macho"
	}
	return "pe"
}

// A budgetReader reads from r until left bytes are read, then fails with
// limit, which it also keeps in err.
type budgetReader struct {
	r     io.ReaderAt
	left  uint64
	limit *LimitError
	err   error
}

func (b *budgetReader) ReadAt(p []byte, off int64) (int, error) {
	if uint64(len(p)) > b.left {
		b.err = b.limit
		return 0, b.err
	}
	n, err := b.r.ReadAt(p, off)
	b.left -= uint64(n)
	return n, err
}

// A section is one section of the file as the format-specific code finds it.
type section struct {
	name string
	size uint64 // the uncompressed size, as declared for a compressed section
	data func() ([]byte, error)
}

// read returns s's data if it is within limit (MaxSectionBytes or
// MaxSymbolBytes) and what MaxReadBytes leaves, which it takes.
func (o *File) read(s section, limit uint64, what string) ([]byte, error) {
	if err := o.take(s, limit, what); err != nil {
		return nil, err
	}
	return s.data()
}

// take checks s's size against limit and what is left, and takes it.
func (o *File) take(s section, limit uint64, what string) error {
	if s.size > limit {
		return &LimitError{Section: s.name, Size: s.size, Limit: limit, What: what}
	}
	if s.size > o.left {
		return &LimitError{Section: s.name, Size: s.size, Limit: MaxReadBytes, What: "all sections read from a file", Sum: true}
	}
	o.left -= s.size
	return nil
}
