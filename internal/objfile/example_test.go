package objfile_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/objfile"
	"github.com/perflab/perflab/internal/objfile/objfiletest"
)

// A compressed .text that declares 3 GiB is refused by that size, before
// a byte of it is inflated.
func ExampleFile_Text() {
	dir, err := os.MkdirTemp("", "objfile")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "bomb")
	text := objfiletest.Section{Name: ".text", Data: objfiletest.ELFCompressed(3<<30, objfiletest.Zeros(1<<20)), Compressed: true}
	if err := objfiletest.WriteELF(path, []objfiletest.Section{text}); err != nil {
		panic(err)
	}
	f, err := objfile.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	_, _, err = f.Text()
	fmt.Println(f.Format(), f.GOARCH())
	fmt.Println(errors.Is(err, objfile.ErrTooLarge), err)
	// Output:
	// elf amd64
	// true .text: 3 GiB, over 256 MiB, the limit for a section
}
