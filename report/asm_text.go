package report

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
)

// annotate disassembles s and gives each instruction the values of the
// sampled nodes from its address up to the next instruction's, as pprof's
// annotateAssembly; with inlines, each instruction gets its call chain
// from the binary's DWARF or, without DWARF, from the profile's location
// at its address (chains).
func (s *asmSymbol) annotate(ix *index, inlines bool, chains map[uint64][]profile.Line) AsmFunc {
	st := ix.stats
	f := AsmFunc{Name: s.sym.Name, Binary: s.bin.Path, Start: s.sym.Addr, End: s.sym.Addr + s.sym.Size}
	for _, n := range s.nodes {
		f.Flat += st.flat[n]
		f.Cum += st.cum[n]
	}
	insts := make([]disasm.Inst, 0, s.sym.Size/4)
	s.bin.Decode(s.sym.Addr, s.sym.Addr+s.sym.Size-1, func(in disasm.Inst) { insts = append(insts, in) })
	nodes := s.nodes
	f.Insts = make([]AsmInst, 0, len(insts))
	for i, in := range insts {
		next := ^uint64(0)
		if i+1 < len(insts) {
			next = insts[i+1].Addr
		}
		a := AsmInst{Addr: in.Addr, Text: in.Text, File: in.File, Line: in.Line}
		var flat, flatDiv, cum, cumDiv int64
		for ; len(nodes) > 0 && ix.infos[nodes[0]].Address-s.offset < next; nodes = nodes[1:] {
			n, info := nodes[0], &ix.infos[nodes[0]]
			flat, flatDiv = flat+st.flat[n], flatDiv+st.flatDiv[n]
			cum, cumDiv = cum+st.cum[n], cumDiv+st.cumDiv[n]
			if a.File == "" {
				a.File = info.File
			}
			if a.Line == 0 {
				a.Line = info.Lineno
			}
			if a.Function == "" {
				a.Function = info.Name
			}
		}
		a.Flat, a.Cum = divide(flat, flatDiv), divide(cum, cumDiv)
		if inlines {
			var err error
			if a.Inlined, err = s.bin.Inlined(s.sym.Addr, in.Addr); err != nil {
				a.Inlined = profileChain(chains[in.Addr+s.offset])
			}
		}
		f.Insts = append(f.Insts, a)
	}
	return f
}

// GenerateDisasm writes pprof's -disasm report of the functions matching
// o.Symbol: each with its instructions and their values. It filters p in
// place. With d.Inlines, an instruction inside inlined code is followed by
// its call chain, one "| inlined ..." line per caller.
func GenerateDisasm(w io.Writer, p *profile.Profile, o Options, d DisasmOptions) error {
	a, err := Disassemble(p, o, d)
	if err != nil {
		return err
	}
	// Nothing fails after Disassemble: write straight through.
	bw := bufio.NewWriterSize(w, 64<<10)
	a.WriteText(bw)
	return bw.Flush()
}

// WriteText writes a as pprof's -disasm does.
func (a *Assembly) WriteText(w io.Writer) {
	r := a.run
	fmt.Fprintln(w, "Total:", r.format(a.Total))
	for i := range a.Funcs {
		f := &a.Funcs[i]
		fmt.Fprintf(w, "ROUTINE ======================== %s\n", f.Name)
		fmt.Fprintf(w, "%10s %10s (flat, cum) %s of Total\n", r.format(f.Flat), r.format(f.Cum), percentage(f.Cum, a.Total))
		var function, file string
		var line int
		for _, in := range f.Insts {
			base := ""
			if in.File != "" {
				base = filepath.Base(in.File)
			}
			loc := ""
			if in.Function != function || base != file || in.Line != line {
				function, file, line = in.Function, base, in.Line
				loc = locString(in.Function, base, in.Line)
			}
			flat, cum := r.valueOrDot(in.Flat), r.valueOrDot(in.Cum)
			switch {
			case loc == "":
				fmt.Fprintf(w, "%10s %10s %10x: %s\n", flat, cum, in.Addr, in.Text)
			case len(in.Text) < 40:
				fmt.Fprintf(w, "%10s %10s %10x: %-40s;%s\n", flat, cum, in.Addr, in.Text, loc)
			default:
				fmt.Fprintf(w, "%74s;%s\n", "", loc)
				fmt.Fprintf(w, "%10s %10s %10x: %s\n", flat, cum, in.Addr, in.Text)
			}
			writeInlined(w, in.Inlined)
		}
	}
}

// locString is pprof's "function file:line" of an instruction.
func locString(function, file string, line int) string {
	loc := ""
	if function != "" {
		loc = function + " "
	}
	if file != "" {
		loc += file
		if line != 0 {
			loc += fmt.Sprintf(":%d", line)
		}
	}
	return loc
}

// writeInlined writes the callers of an instruction in inlined code,
// innermost first; nothing outside inlined code.
func writeInlined(w io.Writer, chain []disasm.Frame) {
	if len(chain) < 2 {
		return
	}
	var b strings.Builder
	for _, fr := range chain {
		fmt.Fprintf(&b, "%34s| %s %s:%d\n", "", fr.Func, filepath.Base(fr.File), fr.Line)
	}
	io.WriteString(w, b.String())
}

// profileChain converts a location's lines to frames.
func profileChain(lines []profile.Line) []disasm.Frame {
	var out []disasm.Frame
	for _, l := range lines {
		if l.Function != nil {
			out = append(out, disasm.Frame{Func: l.Function.Name, File: l.Function.Filename, Line: int(l.Line)})
		}
	}
	return out
}
