package profiles

import (
	"debug/dwarf"
	"debug/gosym"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/objfile"
)

// isExecutable reports whether path, which the user named, is an ELF
// file, the kind of file "go tool pprof BINARY PROFILE" takes first on
// Linux (pprof takes any object file it can open). Only a regular file
// can be one: a FIFO or /dev/fd/N of a pipe is left unread for the
// profile it carries.
func isExecutable(path string) bool {
	f, err := objfile.OpenArg(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Format() == "elf"
}

// Symbolize gives function names, file names and line numbers to the
// locations of p that have only addresses, such as those of legacy text
// profiles, using binary: an ELF executable's Go line table (pclntab), else
// its DWARF line table for code not written in Go. It treats binary as the
// program that wrote p: the file of p's first mapping. Locations in
// mappings already symbolized are left alone.
func Symbolize(p *profile.Profile, binary string) error {
	ensureMapping(p)
	if !isExecutable(binary) {
		return fmt.Errorf("%s: not an ELF binary", binary)
	}
	p.Mapping[0].File = binary
	symbolizeLocal(p, binary)
	return nil
}

// symbolizeLocal symbolizes every unsymbolized mapping whose file is an ELF
// file on this machine, as pprof's local symbolizer does. Mappings whose
// file is missing, unreadable, not ELF or refused (package objfile: the
// profile names these files) are left as they are. binary, if not "", is
// the file the user named for the first mapping.
func symbolizeLocal(p *profile.Profile, binary string) {
	byMapping := map[*profile.Mapping][]*profile.Location{}
	for _, l := range p.Location {
		byMapping[l.Mapping] = append(byMapping[l.Mapping], l)
	}
	funcs := map[profile.Function]*profile.Function{}
	for _, m := range p.Mapping {
		locs := byMapping[m]
		if len(locs) == 0 || m.HasFunctions || m.HasFilenames || m.HasLineNumbers ||
			m.File == "" || m.Unsymbolizable() || isURL(m.File) {
			continue
		}
		open := objfile.Open
		if binary != "" && m.File == binary {
			open = objfile.OpenArg
		}
		obj, err := openObject(open, m.File, m.Start)
		if err != nil { // missing, unreadable, not ELF or refused
			continue
		}
		symbolizeMapping(p, m, locs, obj, funcs)
		obj.close()
	}
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.IsAbs() && strings.Contains(strings.ToLower(u.Scheme), "http")
}

// symbolizeMapping gives each location of m a line from obj, sharing one
// Function among identical ones, in the order pprof creates them.
func symbolizeMapping(p *profile.Profile, m *profile.Mapping, locs []*profile.Location, obj *object, funcs map[profile.Function]*profile.Function) {
	for _, l := range locs {
		fr, ok := obj.sourceLine(l.Address)
		if !ok {
			continue
		}
		m.HasFunctions = m.HasFunctions || fr.fn != ""
		m.HasFilenames = m.HasFilenames || fr.file != ""
		m.HasLineNumbers = m.HasLineNumbers || fr.line != 0
		m.HasInlineFrames = true
		key := profile.Function{Name: fr.fn, SystemName: fr.fn, Filename: fr.file}
		f := funcs[key]
		if f == nil {
			f = &profile.Function{ID: uint64(len(p.Function)) + 1, Name: fr.fn, SystemName: fr.fn, Filename: fr.file}
			funcs[key] = f
			p.Function = append(p.Function, f)
		}
		l.Line = []profile.Line{{Function: f, Line: int64(fr.line)}}
		l.IsFolded = false
	}
}

// An object is an opened ELF file ready to map addresses to source lines.
type object struct {
	file   *objfile.File
	offset uint64 // subtracted from profile addresses to get file addresses
	table  *gosym.Table
	dwarf  *dwarf.Data // loaded on first need
	triedD bool
}

// A frame is what an address resolves to.
type frame struct {
	fn, file string
	line     int
}

// openObject opens, with open, an ELF file mapped at start (0 if unknown).
func openObject(open func(string) (*objfile.File, error), path string, start uint64) (*object, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	if f.Format() != "elf" {
		f.Close()
		return nil, fmt.Errorf("%s: not an ELF binary", path)
	}
	o := &object{file: f}
	if load, ok := f.LoadAddress(); ok && start != 0 {
		o.offset = start - load
	}
	// A binary not written in Go has no table.
	if data, textStart, err := f.GoLineTable(); err == nil && data != nil {
		o.table, _ = objfile.GoTable(data, textStart)
	}
	return o, nil
}

func (o *object) close() { o.file.Close() }

// sourceLine resolves a profile address: from the Go line table, else
// from DWARF. Like go tool pprof, it reports the function holding the
// machine code, with the file and line of the innermost inlined call.
func (o *object) sourceLine(addr uint64) (frame, bool) {
	addr -= o.offset
	if o.table != nil {
		if file, line, fn := o.table.PCToLine(addr); fn != nil {
			return frame{fn: fn.Name, file: file, line: line}, true
		}
	}
	return o.dwarfLine(addr)
}

// dwarfLine resolves addr from DWARF, for code not written in Go.
func (o *object) dwarfLine(addr uint64) (frame, bool) {
	if !o.triedD {
		o.dwarf, _ = o.file.DWARF()
		o.triedD = true
	}
	if o.dwarf == nil {
		return frame{}, false
	}
	r := o.dwarf.Reader()
	unit, err := r.SeekPC(addr)
	if err != nil {
		return frame{}, false
	}
	lr, err := o.dwarf.LineReader(unit)
	if err != nil || lr == nil {
		return frame{}, false
	}
	var le dwarf.LineEntry
	if err := lr.SeekPC(addr, &le); err != nil {
		return frame{}, false
	}
	fr := frame{line: le.Line}
	if le.File != nil {
		fr.file = le.File.Name
	}
	fr.fn = dwarfFuncName(o.dwarf, r, addr)
	return fr, true
}

// dwarfFuncName finds the subprogram containing addr among the entries
// that follow r's position in the compilation unit.
func dwarfFuncName(d *dwarf.Data, r *dwarf.Reader, addr uint64) string {
	for e, err := r.Next(); e != nil && err == nil; e, err = r.Next() {
		if e.Tag != dwarf.TagSubprogram {
			continue
		}
		ranges, err := d.Ranges(e)
		if err != nil {
			return ""
		}
		for _, pcs := range ranges {
			if pcs[0] <= addr && addr < pcs[1] {
				if name, ok := e.Val(dwarf.AttrName).(string); ok {
					return name
				}
			}
		}
	}
	return ""
}
