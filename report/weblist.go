package report

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
)

// A Source is the annotated source of the functions matching a regexp, as
// data: what the web UI's source view (pprof's weblist) shows. Unlike
// pprof's weblist, whose figures add up the values of a line's
// instructions and of a function's lines, every value here counts each
// sample at most once per line and once per function, however often a
// recursive function recurs in the sample's stack: no line and no function
// exceeds 100% of the total (google/pprof#707).
type Source struct {
	Total int64 // the 100% of percentages
	Funcs []SourceFunc
	run   *run
	src   *sourceReader
}

// A SourceFunc is one function's lines in one file (a ROUTINE of list).
type SourceFunc struct {
	Name string
	File string // as list shows it: after -trim_path, cleaned
	// Path is the file as the profile names it (the compiler's notes are
	// indexed by it).
	Path      string
	Flat, Cum int64 // each sample counted at most once
	// Err says why the source file could not be read; Lines then hold
	// only the lines that have values, with no text.
	Err   error
	Lines []SourceLine
	start int // the first line listed
}

// A SourceLine is one line of a function with its values.
type SourceLine struct {
	Line      int
	Text      string
	Flat, Cum int64
	// Inlined are the calls on this line that the compiler inlined, with
	// the samples in their code, heaviest first.
	Inlined []InlinedCall
	// Insts are the instructions generated for this line (AddAssembly),
	// in address order.
	Insts []LineInst
}

// An InlinedCall is a function inlined at a source line, with the
// samples whose stacks pass through it there.
type InlinedCall struct {
	Func      string
	Flat, Cum int64
}

// A LineInst is an instruction under a source line: its own values, and
// the inlined calls that lead from the line to the instruction's code,
// outermost first (empty when the instruction is the line's own code).
type LineInst struct {
	AsmInst
	Calls []disasm.Frame
}

// Format renders v as the report's figures (unit, -divide_by).
func (s *Source) Format(v int64) string { return s.run.format(v) }

// Percent renders v as a percentage of the total, as the reports do.
func (s *Source) Percent(v int64) string { return percentage(v, s.Total) }

// lineKey identifies a line of a routine; calleeKey an inlined call on it.
type (
	lineKey   struct{ routine, line int }
	calleeKey struct {
		line   int32
		callee string
	}
)

// sourceAcc accumulates values, counting each sample once per key.
type sourceAcc struct {
	flat, flatDiv, cum, cumDiv []int64
	stamp                      []int32
}

func (a *sourceAcc) grow(n int) {
	for len(a.cum) < n {
		a.flat, a.flatDiv = append(a.flat, 0), append(a.flatDiv, 0)
		a.cum, a.cumDiv = append(a.cum, 0), append(a.cumDiv, 0)
		a.stamp = append(a.stamp, 0)
	}
}

// add counts a sample (mark) once for key k; leaf adds it to flat too.
func (a *sourceAcc) add(k int32, mark int32, w, dw int64, leaf bool) {
	if leaf {
		a.flat[k] += w
		a.flatDiv[k] += dw
	}
	if a.stamp[k] != mark {
		a.stamp[k] = mark
		a.cum[k] += w
		a.cumDiv[k] += dw
	}
}

func (a *sourceAcc) values(k int32) (flat, cum int64) {
	return divide(a.flat[k], a.flatDiv[k]), divide(a.cum[k], a.cumDiv[k])
}

// ListSource computes the annotated source of the functions matching
// o.Symbol in p, as list does (same functions, files, line ranges and
// per-line values), with each function's values counted once per sample
// and the calls inlined on each line. It filters p in place.
func ListSource(p *profile.Profile, o Options) (*Source, error) {
	r, err := prepare(p, List, o)
	if err != nil {
		return nil, err
	}
	rx, err := r.symbolRegexp()
	if err != nil {
		return nil, err
	}
	g := newGranularity(&r.o, true, true)
	g.keep = rx.MatchString
	ix := newFrameIndex(r.p, g)
	b := newSourceBuilder(r, ix)
	b.scan()
	s := &Source{Total: r.total, run: r}
	if s.src, err = r.sourceReader(); err != nil {
		return nil, err
	}
	s.Funcs = b.funcs(s.src)
	if len(s.Funcs) == 0 {
		return nil, fmt.Errorf("no matches found for regexp: %s", rx)
	}
	return s, nil
}

// sourceReader returns list's reader of source files.
func (r *run) sourceReader() (*sourceReader, error) {
	search := r.o.SourcePath
	if search == "" {
		var err error
		if search, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("could not stat current dir: %w", err)
		}
	}
	return newSourceReader(search, r.o.TrimPath), nil
}

// sourceBuilder groups a line-granularity index's nodes into routines
// (function and file) and lines, and scans the samples into them.
type sourceBuilder struct {
	r         *run
	ix        *index
	routineOf []int32 // node -> routine, -1 for nodes not listed
	lineOf    []int32 // node -> line ID
	routines  []routineKey
	lines     []lineKey
	paths     []string // routine -> the profile's file name
	callees   map[calleeKey]int32
	calleeIDs []calleeKey
	fn, ln    sourceAcc // by routine, by line
	call      sourceAcc // by callee ID
	startLine map[int]int
}

type routineKey struct{ name, file string }

func newSourceBuilder(r *run, ix *index) *sourceBuilder {
	b := &sourceBuilder{r: r, ix: ix, callees: map[calleeKey]int32{}, startLine: map[int]int{}}
	routineIDs := map[routineKey]int32{}
	lineIDs := map[lineKey]int32{}
	b.routineOf = make([]int32, len(ix.infos))
	b.lineOf = make([]int32, len(ix.infos))
	for n := range ix.infos {
		in := &ix.infos[n]
		b.routineOf[n] = -1
		if n == 0 || in.File == "" || in.Name == "" || in.Name == "(other functions)" {
			continue
		}
		rk := routineKey{in.Name, in.File}
		id, ok := routineIDs[rk]
		if !ok {
			id = int32(len(b.routines))
			routineIDs[rk] = id
			b.routines = append(b.routines, rk)
			b.paths = append(b.paths, "")
		}
		b.routineOf[n] = id
		lk := lineKey{int(id), in.Lineno}
		lid, ok := lineIDs[lk]
		if !ok {
			lid = int32(len(b.lines))
			lineIDs[lk] = lid
			b.lines = append(b.lines, lk)
		}
		b.lineOf[n] = lid
	}
	b.fn.grow(len(b.routines))
	b.ln.grow(len(b.lines))
	return b
}

// scan adds every sample to the routines and lines on its stack, once
// each, to its leaf line's flat value, and to the inlined calls it passes
// through.
func (b *sourceBuilder) scan() {
	ix, li := b.ix, b.ix.locs
	for si, smp := range b.r.p.Sample {
		w, dw := b.r.val.get(smp.Value)
		if w == 0 && dw == 0 {
			continue
		}
		mark := int32(si + 1)
		for depth, l := range smp.Location {
			loc := li.get(l)
			if loc < 0 {
				continue
			}
			nodes := ix.locNodes[ix.locStart[loc]:ix.locStart[loc+1]]
			for j, n := range nodes {
				rt := b.routineOf[n]
				if rt < 0 {
					continue
				}
				leaf := depth == 0 && j == 0
				b.fn.add(rt, mark, w, dw, leaf)
				b.ln.add(b.lineOf[n], mark, w, dw, leaf)
				if b.paths[rt] == "" && j < len(l.Line) && l.Line[j].Function != nil {
					b.paths[rt] = l.Line[j].Function.Filename
				}
				if j > 0 && j < len(l.Line) && l.Line[j-1].Function != nil {
					b.addCallee(b.lineOf[n], l.Line[j-1].Function.Name, mark, w, dw, depth == 0)
				}
			}
		}
	}
}

func (b *sourceBuilder) addCallee(line int32, callee string, mark int32, w, dw int64, leaf bool) {
	k := calleeKey{line, callee}
	id, ok := b.callees[k]
	if !ok {
		id = int32(len(b.calleeIDs))
		b.callees[k] = id
		b.calleeIDs = append(b.calleeIDs, k)
		b.call.grow(len(b.calleeIDs))
	}
	b.call.add(id, mark, w, dw, leaf)
}

// funcs returns the routines with values, sorted by name then file as
// list prints them, each with its lines.
func (b *sourceBuilder) funcs(src *sourceReader) []SourceFunc {
	const margin = 5
	type span struct{ start, end int }
	spans := make([]span, len(b.routines))
	vals := make([]map[int]*SourceLine, len(b.routines))
	for lid, lk := range b.lines {
		flat, cum := b.ln.values(int32(lid))
		if flat == 0 && cum == 0 {
			continue
		}
		if vals[lk.routine] == nil {
			vals[lk.routine] = map[int]*SourceLine{}
			spans[lk.routine] = span{lk.line, lk.line + margin}
		}
		vals[lk.routine][lk.line] = &SourceLine{Line: lk.line, Flat: flat, Cum: cum}
		spans[lk.routine].end = max(spans[lk.routine].end, lk.line+margin)
	}
	// As list: from the function's first line (or five lines before the
	// first line with values) to five lines after the last.
	for n := range b.ix.infos {
		rt := b.routineOf[n]
		if rt < 0 || vals[rt] == nil || vals[rt][b.ix.infos[n].Lineno] == nil {
			continue
		}
		st := b.ix.infos[n].StartLine
		if st == 0 {
			st = b.ix.infos[n].Lineno - margin
		}
		spans[rt].start = min(spans[rt].start, st)
	}
	b.attachCallees(vals)
	var out []SourceFunc
	for rt, rk := range b.routines {
		if vals[rt] == nil {
			continue
		}
		flat, cum := b.fn.values(int32(rt))
		f := SourceFunc{Name: rk.name, File: rk.file, Path: b.paths[rt], Flat: flat, Cum: cum, start: max(spans[rt].start, 1)}
		f.Lines, f.Err = readLines(src, rk.file, f.start, spans[rt].end, vals[rt])
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].File < out[j].File
	})
	return out
}

// attachCallees gives each line with values its inlined calls.
func (b *sourceBuilder) attachCallees(vals []map[int]*SourceLine) {
	for id, ck := range b.calleeIDs {
		lk := b.lines[ck.line]
		l := vals[lk.routine][lk.line]
		if l == nil {
			continue
		}
		flat, cum := b.call.values(int32(id))
		l.Inlined = append(l.Inlined, InlinedCall{Func: ck.callee, Flat: flat, Cum: cum})
	}
	for _, m := range vals {
		for _, l := range m {
			sort.Slice(l.Inlined, func(i, j int) bool {
				a, c := l.Inlined[i], l.Inlined[j]
				if a.Cum != c.Cum {
					return abs64(a.Cum) > abs64(c.Cum)
				}
				return a.Func < c.Func
			})
		}
	}
}

// readLines returns lines start..end of file with the values of vals;
// if the file cannot be read, only the lines of vals, in order.
func readLines(src *sourceReader, file string, start, end int, vals map[int]*SourceLine) ([]SourceLine, error) {
	f, err := src.file(file)
	var out []SourceLine
	if err != nil {
		for _, l := range vals {
			out = append(out, *l)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
		return out, err
	}
	f.lines(start, end, func(n int, text string) {
		l := SourceLine{Line: n}
		if v := vals[n]; v != nil {
			l = *v
		}
		l.Text = text
		out = append(out, l)
	})
	return out, nil
}

// AddAssembly puts a's instructions under the source lines they were
// generated for, as pprof's weblist does: an instruction goes under every
// listed function of its inlined call chain, at that function's line,
// with the inlined calls from there to the instruction. Lines listed only
// because an instruction names them are added to the listing.
func (s *Source) AddAssembly(a *Assembly) {
	idx := map[routineKey]int{}
	for i := range s.Funcs {
		idx[routineKey{s.Funcs[i].Name, s.Funcs[i].File}] = i
	}
	type placed struct {
		fn, line int
		inst     LineInst
	}
	var all []placed
	for _, af := range a.Funcs {
		for _, in := range af.Insts {
			chain := in.Inlined
			if len(chain) == 0 {
				name := in.Function
				if name == "" {
					name = af.Name
				}
				chain = []disasm.Frame{{Func: name, File: in.File, Line: in.Line}}
			}
			for i, fr := range chain {
				fi, ok := idx[routineKey{fr.Func, s.fileKey(fr.File)}]
				if !ok || fr.Line <= 0 {
					continue
				}
				li := LineInst{AsmInst: in}
				for j := i - 1; j >= 0; j-- {
					li.Calls = append(li.Calls, chain[j])
				}
				all = append(all, placed{fi, fr.Line, li})
			}
		}
	}
	ends := make([]int, len(s.Funcs))
	for _, p := range all {
		ends[p.fn] = max(ends[p.fn], p.line)
	}
	for i := range s.Funcs {
		s.extend(&s.Funcs[i], ends[i])
	}
	for _, p := range all {
		f := &s.Funcs[p.fn]
		k := sort.Search(len(f.Lines), func(k int) bool { return f.Lines[k].Line >= p.line })
		if k < len(f.Lines) && f.Lines[k].Line == p.line {
			f.Lines[k].Insts = append(f.Lines[k].Insts, p.inst)
		}
	}
	for i := range s.Funcs {
		for k := range s.Funcs[i].Lines {
			insts := s.Funcs[i].Lines[k].Insts
			sort.SliceStable(insts, func(x, y int) bool { return insts[x].Addr < insts[y].Addr })
		}
	}
}

// extend lists f's lines up to line end, when its source was read.
func (s *Source) extend(f *SourceFunc, end int) {
	if f.Err != nil || len(f.Lines) == 0 || end <= f.Lines[len(f.Lines)-1].Line {
		return
	}
	src, err := s.src.file(f.File)
	if err != nil {
		return
	}
	last := f.Lines[len(f.Lines)-1].Line
	src.lines(last+1, end, func(n int, text string) {
		f.Lines = append(f.Lines, SourceLine{Line: n, Text: text})
	})
}

// fileKey is a binary's file name as the listing names files.
func (s *Source) fileKey(name string) string {
	if name == "" {
		return ""
	}
	return filepath.Clean(trimPath(name, s.run.o.TrimPath, s.run.o.SourcePath))
}
