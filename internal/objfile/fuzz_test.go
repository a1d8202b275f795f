package objfile_test

import (
	"bytes"
	"testing"

	"github.com/perflab/perflab/internal/objfile"
)

// FuzzNewFile feeds arbitrary bytes to the reader: it must fail cleanly
// or give sections, symbols and DWARF within its bounds, without
// panicking. The seeds under testdata/fuzz/FuzzNewFile are small files of
// each format made with objfiletest (with a compressed .debug_info, a
// symbol table, a .zdebug section, a Mach-O and a PE DWARF section) and
// the truncated headers of real binaries that disasm's FuzzRead starts
// from.
func FuzzNewFile(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01"))
	f.Add([]byte("MZ"))
	f.Add([]byte("\xcf\xfa\xed\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := objfile.NewFile(bytes.NewReader(data))
		if err != nil {
			return
		}
		o.GOARCH()
		o.BuildID()
		o.LoadAddress()
		o.Text()
		o.GoLineTable()
		o.Symbols()
		if d, err := o.DWARF(); err == nil {
			r := d.Reader()
			for i := 0; i < 64; i++ {
				if e, err := r.Next(); e == nil || err != nil {
					break
				}
			}
		}
	})
}
