package disasm

import (
	"debug/dwarf"
	"fmt"
	"sync"
)

// A Frame is one function of an inlined call chain.
type Frame struct {
	Func string
	File string
	Line int
}

// an inlinedCall is a DWARF inlined subroutine: the callee's code ranges
// and where its caller called it.
type inlinedCall struct {
	ranges   [][2]uint64
	depth    int
	callee   string
	callFile string
	callLine int
}

// inlineIndex caches the inlined calls of the functions asked about.
type inlineIndex struct {
	mu    sync.Mutex
	data  *dwarf.Data
	err   error
	funcs map[uint64]*funcInlines
}

// funcInlines are a function's inlined calls, outermost first.
type funcInlines struct {
	name  string
	calls []inlinedCall
}

// Inlined returns the call chain at pc, innermost frame first: the
// function whose code pc is (file and line from the line table), then each
// caller it was inlined into, with the line of the call. fnStart is the
// address of the enclosing function's symbol. A pc outside inlined code
// gives one frame. Without DWARF it returns the error.
func (b *Binary) Inlined(fnStart, pc uint64) ([]Frame, error) {
	fi, err := b.funcInlines(fnStart)
	file, line, fn := b.Line(pc)
	if err != nil {
		return []Frame{{Func: fn, File: file, Line: line}}, err
	}
	var chain []*inlinedCall
	for i := range fi.calls {
		c := &fi.calls[i]
		if c.contains(pc) {
			chain = append(chain, c) // outermost first
		}
	}
	frames := make([]Frame, 0, len(chain)+1)
	top := Frame{Func: fi.name, File: file, Line: line}
	if n := len(chain); n > 0 {
		top.Func = chain[n-1].callee
	}
	frames = append(frames, top)
	for i := len(chain) - 1; i >= 0; i-- {
		caller := fi.name
		if i > 0 {
			caller = chain[i-1].callee
		}
		frames = append(frames, Frame{Func: caller, File: chain[i].callFile, Line: chain[i].callLine})
	}
	return frames, nil
}

func (c *inlinedCall) contains(pc uint64) bool {
	for _, r := range c.ranges {
		if r[0] <= pc && pc < r[1] {
			return true
		}
	}
	return false
}

// funcInlines reads, once, the DWARF subprogram starting at fnStart.
func (b *Binary) funcInlines(fnStart uint64) (*funcInlines, error) {
	b.inlOnce.Do(func() {
		b.inl = &inlineIndex{funcs: map[uint64]*funcInlines{}}
		if b.inl.data, b.inl.err = b.readDWARF(); b.inl.err != nil {
			b.inl.err = fmt.Errorf("%s: no DWARF (built with -w?): %w", b.Path, b.inl.err)
		}
	})
	ix := b.inl
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.err != nil {
		return nil, ix.err
	}
	if fi := ix.funcs[fnStart]; fi != nil {
		return fi, nil
	}
	fi, err := readFuncInlines(ix.data, fnStart)
	if err != nil {
		return nil, fmt.Errorf("%s: inlined calls at %#x: %w", b.Path, fnStart, err)
	}
	ix.funcs[fnStart] = fi
	return fi, nil
}

// readFuncInlines finds the subprogram at fnStart in its compilation unit
// and collects its inlined subroutines.
func readFuncInlines(d *dwarf.Data, fnStart uint64) (*funcInlines, error) {
	r := d.Reader()
	cu, err := r.SeekPC(fnStart)
	if err != nil {
		return nil, err
	}
	var files []*dwarf.LineFile
	if lr, err := d.LineReader(cu); err == nil && lr != nil {
		files = lr.Files()
	}
	for {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		if e == nil || e.Tag == 0 || e.Tag == dwarf.TagCompileUnit {
			return &funcInlines{}, nil
		}
		if e.Tag != dwarf.TagSubprogram {
			if e.Children {
				r.SkipChildren()
			}
			continue
		}
		low, _ := e.Val(dwarf.AttrLowpc).(uint64)
		if low != fnStart {
			if e.Children {
				r.SkipChildren()
			}
			continue
		}
		fi := &funcInlines{name: entryName(d, e)}
		if e.Children {
			if err := readInlined(d, r, files, fi, 0); err != nil {
				return nil, err
			}
		}
		return fi, nil
	}
}

// readInlined reads the children of the current entry, recursively.
func readInlined(d *dwarf.Data, r *dwarf.Reader, files []*dwarf.LineFile, fi *funcInlines, depth int) error {
	for {
		e, err := r.Next()
		if err != nil {
			return err
		}
		if e == nil || e.Tag == 0 {
			return nil
		}
		if e.Tag == dwarf.TagInlinedSubroutine {
			c := inlinedCall{depth: depth, callee: entryName(d, e)}
			c.ranges, _ = d.Ranges(e)
			if i, ok := e.Val(dwarf.AttrCallFile).(int64); ok && i >= 0 && int(i) < len(files) && files[i] != nil {
				c.callFile = files[i].Name
			}
			if l, ok := e.Val(dwarf.AttrCallLine).(int64); ok {
				c.callLine = int(l)
			}
			fi.calls = append(fi.calls, c)
		}
		if e.Children {
			if depth > 64 {
				r.SkipChildren()
				continue
			}
			if err := readInlined(d, r, files, fi, depth+1); err != nil {
				return err
			}
		}
	}
}

// entryName is an entry's name, or that of its abstract origin.
func entryName(d *dwarf.Data, e *dwarf.Entry) string {
	if n, ok := e.Val(dwarf.AttrName).(string); ok {
		return n
	}
	off, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
	if !ok {
		return ""
	}
	r := d.Reader()
	r.Seek(off)
	if o, err := r.Next(); err == nil && o != nil {
		if n, ok := o.Val(dwarf.AttrName).(string); ok {
			return n
		}
	}
	return ""
}

// readDWARF reopens the binary, as Open opened it, for its debugging
// information, which Open leaves unread since only -inlines needs it.
func (b *Binary) readDWARF() (*dwarf.Data, error) {
	f, err := b.open(b.Path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.DWARF()
}
