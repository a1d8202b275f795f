package report

import (
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
)

// Disasm is the annotated disassembly report (pprof's -disasm); write it
// with GenerateDisasm, or compute it with Disassemble.
const Disasm Kind = "disasm"

// DisasmOptions say where the binaries are and what to add to pprof's
// listing.
type DisasmOptions struct {
	// Binary, if not "", is the main mapping's binary (pprof's BINARY
	// argument); otherwise the mappings' files are searched along
	// SearchPath as pprof does (see disasm.Locate).
	Binary     string
	SearchPath string // "" means disasm.SearchPath()
	// Inlines adds to each instruction its inlined call chain, from the
	// binary's DWARF (a perflab extension; pprof cannot).
	Inlines bool
	Cache   *disasm.Cache // nil opens the binaries anew
}

// An Assembly is the disassembly report as data: the matching functions
// of the profile's binaries, each instruction with its own values. The web
// source view expands source lines into it (see AsmFunc.Lines).
type Assembly struct {
	Total int64 // the 100% of percentages
	Funcs []AsmFunc
	run   *run
}

// An AsmFunc is one function symbol with samples.
type AsmFunc struct {
	Name       string
	Binary     string // path of the binary it was read from
	Start, End uint64 // symbol's addresses in the binary, End excluded
	Flat, Cum  int64  // sums over its instructions (pprof's routine header)
	Insts      []AsmInst
}

// An AsmInst is one instruction with the samples at its addresses.
type AsmInst struct {
	Addr     uint64 // in the binary
	Text     string // Go assembler syntax
	Function string // the sampled function at this address, "" if none
	File     string // source file from the line table (or the samples)
	Line     int
	// Flat and Cum are the instruction's values (divided by the sample
	// count for -mean), before -divide_by and units.
	Flat, Cum int64
	// Inlined is the call chain at this instruction, innermost first,
	// with DisasmOptions.Inlines; nil otherwise.
	Inlined []disasm.Frame
}

// An AsmLine is one source line of a function with its instructions.
type AsmLine struct {
	File      string
	Line      int
	Flat, Cum int64 // sums of its instructions' values
	Insts     []AsmInst
}

// Lines groups f's instructions by source line, in file and line order:
// what a source view shows under each line.
func (f *AsmFunc) Lines() []AsmLine {
	idx := map[[2]any]int{}
	var out []AsmLine
	for _, in := range f.Insts {
		k := [2]any{in.File, in.Line}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, AsmLine{File: in.File, Line: in.Line})
		}
		l := &out[i]
		l.Flat += in.Flat
		l.Cum += in.Cum
		l.Insts = append(l.Insts, in)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// Format renders v as the report's figures do (unit, -divide_by).
func (a *Assembly) Format(v int64) string { return a.run.format(v) }

// Disassemble computes the disassembly report of the functions matching
// o.Symbol in p, which it filters in place as Generate does.
func Disassemble(p *profile.Profile, o Options, d DisasmOptions) (*Assembly, error) {
	if o.Symbol == "" {
		return nil, errors.New("disasm needs a regexp")
	}
	rx, err := regexp.Compile(o.Symbol)
	if err != nil {
		return nil, fmt.Errorf("parsing regexp %q: %w", o.Symbol, err)
	}
	if d.Cache == nil {
		d.Cache = &disasm.Cache{}
	}
	if d.SearchPath == "" {
		d.SearchPath = disasm.SearchPath()
	}
	disasm.Locate(p, d.Binary, d.SearchPath, d.Cache)
	// pprof's disasm: addresses, inlined frames folded into their
	// caller, nothing trimmed.
	o.Granularity, o.NoInlines, o.NoTrim = "addresses", true, true
	r, err := prepare(p, Disasm, o)
	if err != nil {
		return nil, err
	}
	var address *uint64
	if a, err := strconv.ParseUint(o.Symbol, 0, 64); err == nil {
		address = &a
	}
	g := newGranularity(&r.o, true, false)
	ix := newIndex(r.p, g, r.val)
	syms, err := matchSymbols(r.p, ix, rx, address, d)
	if err != nil {
		return nil, err
	}
	a := &Assembly{Total: r.total, run: r}
	sortAsmSymbols(syms)
	syms = slices.DeleteFunc(syms, func(s *asmSymbol) bool { return len(s.nodes) == 0 })
	var chains map[uint64][]profile.Line
	if d.Inlines {
		chains = locationChains(p)
	}
	a.Funcs = annotateAll(syms, ix, d.Inlines, chains)
	if len(a.Funcs) == 0 {
		return nil, noMatch(rx, address, len(syms) > 0)
	}
	return a, nil
}

// noMatch is pprof's error when no symbol has samples.
func noMatch(rx *regexp.Regexp, address *uint64, found bool) error {
	switch {
	case address == nil:
		return fmt.Errorf("no matches found for regexp %s", rx)
	case !found:
		return fmt.Errorf("no matches found for address 0x%x", *address)
	}
	return fmt.Errorf("address 0x%x found in binary, but the corresponding symbols do not have samples in the profile", *address)
}

// annotateAll disassembles and annotates the symbols, several at a time
// (each is independent; the binaries are safe for concurrent use).
func annotateAll(syms []*asmSymbol, ix *index, inlines bool, chains map[uint64][]profile.Line) []AsmFunc {
	out := make([]AsmFunc, len(syms))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(syms)) {
		wg.Go(func() {
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(syms) {
					return
				}
				out[j] = syms[j].annotate(ix, inlines, chains)
			}
		})
	}
	wg.Wait()
	return out
}

// locationChains maps each profile address to its location's frames,
// innermost first: the inlined chains of sampled instructions when the
// binary has no DWARF.
func locationChains(p *profile.Profile) map[uint64][]profile.Line {
	m := make(map[uint64][]profile.Line, len(p.Location))
	for _, l := range p.Location {
		if len(l.Line) > 0 {
			m[l.Address] = l.Line
		}
	}
	return m
}
