package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/report"
)

// The source view (pprof's weblist): every line of the functions matching
// the focus regexp with its flat and cum values, each sample counted once
// per line and once per function (report.ListSource), expandable into the
// calls inlined on it and into its instructions with their own values
// (report.Disassemble, when the profile's binary is found). The compiler's
// notes are fetched on demand from /ui/api/notes (notes.go).

// maxAsmSymbols bounds how many binary functions are disassembled for one
// source view: those holding the listed functions' code, heaviest first.
const maxAsmSymbols = 64

// srcView is the source view's data, as the page and /ui/api/source show
// it; every string is escaped where it is shown.
type srcView struct {
	Total   string    `json:"total"`
	Funcs   []srcFunc `json:"funcs"`
	AsmNote string    `json:"asm_note,omitempty"` // why there is no assembly
}

type srcFunc struct {
	Name    string    `json:"name"`
	File    string    `json:"file"`
	Path    string    `json:"-"` // the profile's file name, for the notes
	Flat    int64     `json:"flat"`
	Cum     int64     `json:"cum"`
	Summary string    `json:"summary"` // "flat cum (flat, cum) pct of Total"
	Err     string    `json:"error,omitempty"`
	Lines   []srcLine `json:"lines"`
}

type srcLine struct {
	Line     int       `json:"line"`
	Text     string    `json:"text"`
	Flat     int64     `json:"flat"`
	Cum      int64     `json:"cum"`
	FlatText string    `json:"flat_text"` // "." for zero, as list prints
	CumText  string    `json:"cum_text"`
	Inlined  []srcCall `json:"inlined,omitempty"`
	Insts    []srcInst `json:"insts,omitempty"`
}

type srcCall struct {
	Func     string `json:"func"`
	Flat     int64  `json:"flat"`
	Cum      int64  `json:"cum"`
	FlatText string `json:"flat_text"`
	CumText  string `json:"cum_text"`
}

type srcInst struct {
	Addr     uint64   `json:"addr"`
	Text     string   `json:"text"`
	Flat     int64    `json:"flat"`
	Cum      int64    `json:"cum"`
	FlatText string   `json:"flat_text"`
	CumText  string   `json:"cum_text"`
	Pos      string   `json:"pos"`             // file:line of the instruction's own code
	Calls    []string `json:"calls,omitempty"` // inlined calls leading to it, outermost first
}

// Hot reports whether the line has a value; Expandable whether it has
// something to show under it.
func (l srcLine) Hot() bool        { return l.Flat != 0 || l.Cum != 0 }
func (l srcLine) Expandable() bool { return len(l.Insts) > 0 || len(l.Inlined) > 0 }

var sourceTmpl = template.Must(template.ParseFS(assets, "assets/source.html"))

// fillSource renders the source view of the functions matching the focus
// regexp. The files read are those the profile names, found under the
// server's source_path and trim_path; nothing in the URL names a file.
func (s *Server) fillSource(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = symbol(q)
	if d.Symbol == "" {
		return errors.New("source: choose functions with the focus regexp (Refine > focus, URL parameter f)")
	}
	a, err := s.cached("source", o, d.Symbol, func(o report.Options) (answer, error) {
		v, err := s.sourceModel(o, d.Symbol)
		if err != nil {
			return answer{}, err
		}
		var buf bytes.Buffer
		err = sourceTmpl.ExecuteTemplate(&buf, "source", v)
		return answer{body: buf.Bytes(), contentType: "text/html; charset=utf-8"}, err
	})
	if err != nil {
		return err
	}
	d.Warnings = append(d.Warnings, a.warnings...)
	d.Source = template.HTML(a.body) // rendered by html/template above
	d.Script = "/ui/assets/source.js"
	return nil
}

// sourceJSON answers /ui/api/source: the source view's data as JSON.
func (s *Server) sourceJSON(o report.Options, q url.Values) (answer, error) {
	sym := symbol(q)
	if sym == "" {
		return answer{}, errors.New("choose functions with the focus regexp (URL parameter f)")
	}
	return s.cached("source.json", o, sym, func(o report.Options) (answer, error) {
		v, err := s.sourceModel(o, sym)
		if err != nil {
			return answer{}, err
		}
		b, err := json.Marshal(v)
		return answer{body: b, contentType: "application/json"}, err
	})
}

// sourceModel computes the source view of sym under o, once per
// refinement. The caller holds s.compute.
func (s *Server) sourceModel(o report.Options, sym string) (*srcView, error) {
	k := "source?" + key(o) + "&" + sym
	if v, ok := s.derived.Get(k); ok {
		return v.(*srcView), nil
	}
	o.Symbol = sym
	src, err := report.ListSource(s.p, o)
	if err != nil {
		return nil, err
	}
	v := &srcView{}
	if asm, err := s.assembly(o, src); err != nil {
		v.AsmNote = "no assembly: " + term.OneLine(err.Error())
	} else {
		src.AddAssembly(asm)
	}
	v.fill(src)
	s.derived.Put(k, v)
	return v, nil
}

// assembly disassembles the binary functions that hold the code of src's
// functions (their own symbols and those they were inlined into).
func (s *Server) assembly(o report.Options, src *report.Source) (*report.Assembly, error) {
	names := map[string]bool{}
	for _, f := range src.Funcs {
		names[f.Name] = true
	}
	syms := containingSymbols(s.p, names)
	if len(syms) == 0 {
		return nil, errors.New("the profile has no addresses in these functions")
	}
	for i, n := range syms {
		syms[i] = regexp.QuoteMeta(n)
	}
	// Disassemble matches nodes by their printed names ("ADDR NAME
	// FILE:LINE") as pprof does, and symbols by name: match the whole name
	// in both.
	o.Symbol = `(?:^|\s)(?:` + strings.Join(syms, "|") + `)(?:\s|$)`
	return report.Disassemble(s.p, o, report.DisasmOptions{
		Binary: s.opts.Binary, Inlines: true, Cache: s.disasmCache()})
}

// containingSymbols returns the outermost functions of the locations that
// hold frames of the named functions — the binary's symbols their code is
// in — heaviest first, at most maxAsmSymbols.
func containingSymbols(p *profile.Profile, names map[string]bool) []string {
	holds := map[*profile.Location]string{}
	for _, l := range p.Location {
		if len(l.Line) == 0 || l.Address == 0 {
			continue
		}
		for _, ln := range l.Line {
			if ln.Function != nil && names[ln.Function.Name] {
				if outer := l.Line[len(l.Line)-1].Function; outer != nil {
					holds[l] = outer.Name
				}
				break
			}
		}
	}
	weight := map[string]int64{}
	for _, smp := range p.Sample {
		for _, l := range smp.Location {
			if n, ok := holds[l]; ok && len(smp.Value) > 0 {
				weight[n] += abs(smp.Value[len(smp.Value)-1])
			}
		}
	}
	for _, n := range holds {
		if _, ok := weight[n]; !ok {
			weight[n] = 0 // held, never sampled there
		}
	}
	out := make([]string, 0, len(weight))
	for n := range weight {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if weight[out[i]] != weight[out[j]] {
			return weight[out[i]] > weight[out[j]]
		}
		return out[i] < out[j]
	})
	return out[:min(len(out), maxAsmSymbols)]
}

// fill converts src to the view, with its figures formatted.
func (v *srcView) fill(src *report.Source) {
	v.Total = src.Format(src.Total)
	dot := func(x int64) string {
		if x == 0 {
			return "."
		}
		return src.Format(x)
	}
	for _, f := range src.Funcs {
		sf := srcFunc{Name: f.Name, File: f.File, Path: f.Path, Flat: f.Flat, Cum: f.Cum,
			Summary: fmt.Sprintf("%s %s (flat, cum) %s of Total", src.Format(f.Flat), src.Format(f.Cum), strings.TrimSpace(src.Percent(f.Cum)))}
		if f.Err != nil {
			sf.Err = "Error: " + term.OneLine(f.Err.Error())
		}
		for _, l := range f.Lines {
			sl := srcLine{Line: l.Line, Text: l.Text, Flat: l.Flat, Cum: l.Cum, FlatText: dot(l.Flat), CumText: dot(l.Cum)}
			for _, c := range l.Inlined {
				sl.Inlined = append(sl.Inlined, srcCall{c.Func, c.Flat, c.Cum, dot(c.Flat), dot(c.Cum)})
			}
			for _, in := range l.Insts {
				si := srcInst{Addr: in.Addr, Text: in.Text, Flat: in.Flat, Cum: in.Cum, FlatText: dot(in.Flat), CumText: dot(in.Cum)}
				if in.File != "" {
					si.Pos = fmt.Sprintf("%s:%d", filepath.Base(in.File), in.Line)
				}
				for _, c := range in.Calls {
					si.Calls = append(si.Calls, fmt.Sprintf("%s %s:%d", c.Func, filepath.Base(c.File), c.Line))
				}
				sl.Insts = append(sl.Insts, si)
			}
			sf.Lines = append(sf.Lines, sl)
		}
		v.Funcs = append(v.Funcs, sf)
	}
}

// disasmCache is the server's cache of opened binaries.
func (s *Server) disasmCache() *disasm.Cache {
	s.binariesOnce.Do(func() { s.binaries = &disasm.Cache{} })
	return s.binaries
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// fillDisasm is pprof's /ui/disasm: the annotated disassembly of the
// functions matching the focus regexp, the text perflab disasm (pprof's
// -disasm) prints for the same settings.
func (s *Server) fillDisasm(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = symbol(q)
	if d.Symbol == "" {
		return errors.New("disassembly: choose functions with the focus regexp (Refine > focus, URL parameter f)")
	}
	a, err := s.cached("disasm", o, d.Symbol, func(o report.Options) (answer, error) {
		o.Symbol = d.Symbol
		var buf bytes.Buffer
		err := report.GenerateDisasm(&buf, s.p, o, report.DisasmOptions{Binary: s.opts.Binary, Cache: s.disasmCache()})
		return answer{body: buf.Bytes(), contentType: "text/plain; charset=utf-8"}, err
	})
	if err != nil {
		return err
	}
	d.Warnings = append(d.Warnings, a.warnings...)
	d.Disasm = string(a.body)
	return nil
}
