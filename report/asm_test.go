package report_test

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/report"
)

const asmProg = `package main

import "fmt"

//go:noinline
func square(x int) int { return x * x }

func double(x int) int { return x + x }

func main() { fmt.Println(double(square(3))) }
`

// asmProfile builds asmProg and a profile of it: 5 samples at main.square
// (called from main.main) and 2 in main.main itself.
func asmProfile(t *testing.T) (*profile.Profile, *disasm.Binary, map[string]disasm.Sym) {
	bin := testprog.BuildSource(t, asmProg)
	b, err := disasm.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	syms := map[string]disasm.Sym{}
	for _, s := range b.Symbols(func(n string) bool { return n == "main.main" || n == "main.square" }) {
		syms[s.Name] = s
	}
	load, _ := b.LoadAddress()
	m := &profile.Mapping{ID: 1, Start: load, Limit: ^uint64(0) >> 1, File: bin, BuildID: b.BuildID, HasFunctions: true}
	var fns []*profile.Function
	loc := func(name string, off uint64) *profile.Location {
		fn := &profile.Function{ID: uint64(len(fns) + 1), Name: name, Filename: "main.go"}
		fns = append(fns, fn)
		addr := syms[name].Addr + off
		_, line, _ := b.Line(addr)
		return &profile.Location{ID: fn.ID, Mapping: m, Address: addr, Line: []profile.Line{{Function: fn, Line: int64(line)}}}
	}
	sq, mn := loc("main.square", 0), loc("main.main", syms["main.main"].Size/2)
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Mapping:    []*profile.Mapping{m},
		Location:   []*profile.Location{sq, mn},
		Function:   fns,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{sq, mn}, Value: []int64{5}},
			{Location: []*profile.Location{mn}, Value: []int64{2}},
		},
	}, b, syms
}

// TestDisassemble checks the data the web source view expands lines into:
// per-function and per-line sums agree with the instructions, samples land
// on the instruction that holds their address, and -inlines chains name
// the inlined function.
func TestDisassemble(t *testing.T) {
	p, _, syms := asmProfile(t)
	o := report.DefaultOptions()
	o.Symbol = `main\.(main|square)\b`
	a, err := report.Disassemble(p, o, report.DisasmOptions{Inlines: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Total != 7 || len(a.Funcs) != 2 || a.Funcs[0].Name != "main.main" || a.Funcs[1].Name != "main.square" {
		t.Fatalf("total %d, funcs %+v", a.Total, a.Funcs)
	}
	wantFlat := map[string]int64{"main.main": 2, "main.square": 5}
	wantCum := map[string]int64{"main.main": 7, "main.square": 5}
	inlined := false
	for _, f := range a.Funcs {
		if f.Flat != wantFlat[f.Name] || f.Cum != wantCum[f.Name] || f.Start != syms[f.Name].Addr {
			t.Errorf("%s: flat %d cum %d start %#x", f.Name, f.Flat, f.Cum, f.Start)
		}
		var flat, cum int64
		for _, l := range f.Lines() {
			var lf, lc int64
			for _, in := range l.Insts {
				lf, lc = lf+in.Flat, lc+in.Cum
				if in.Addr < f.Start || in.Addr >= f.End || in.File != l.File || in.Line != l.Line {
					t.Errorf("%s: instruction %+v in line %s:%d", f.Name, in, l.File, l.Line)
				}
				if len(in.Inlined) > 1 && in.Inlined[0].Func == "main.double" && in.Inlined[1].Func == "main.main" {
					inlined = true
				}
			}
			if lf != l.Flat || lc != l.Cum {
				t.Errorf("%s:%d: line sums %d/%d, instructions %d/%d", l.File, l.Line, l.Flat, l.Cum, lf, lc)
			}
			flat, cum = flat+l.Flat, cum+l.Cum
		}
		if flat != f.Flat || cum != f.Cum {
			t.Errorf("%s: lines sum to %d/%d, function %d/%d", f.Name, flat, cum, f.Flat, f.Cum)
		}
	}
	if !inlined {
		t.Error("no instruction of main.main carries the chain main.double < main.main")
	}
	var b bytes.Buffer
	a.WriteText(&b)
	if !strings.Contains(b.String(), "| main.double ") || !strings.HasPrefix(b.String(), "Total: 7\nROUTINE ======================== main.main\n") {
		t.Errorf("text:\n%s", b.String())
	}
}

// TestDisassembleInlinesWithoutDWARF checks the chains taken from the
// profile when the binary has no DWARF (-ldflags=-w): the sampled
// instruction of the inlined main.double gets its location's frames.
func TestDisassembleInlinesWithoutDWARF(t *testing.T) {
	p, b, syms := asmProfile(t)
	// Find, with DWARF, an instruction of main.double inlined in main.main.
	mn := syms["main.main"]
	var addr uint64
	b.Decode(mn.Addr, mn.Addr+mn.Size, func(in disasm.Inst) {
		if chain, err := b.Inlined(mn.Addr, in.Addr); err == nil && len(chain) == 2 && chain[0].Func == "main.double" && addr == 0 {
			addr = in.Addr
		}
	})
	if addr == 0 {
		t.Fatal("main.double is not inlined in main.main")
	}
	src, line, _ := b.Line(addr)
	noDWARF := filepath.Join(t.TempDir(), "prog-w")
	cmd := exec.Command("go", "build", "-ldflags=-w", "-o", noDWARF, ".")
	cmd.Dir = filepath.Dir(src)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -ldflags=-w: %v\n%s", err, out)
	}
	double := &profile.Function{ID: 99, Name: "main.double", Filename: "main.go"}
	mainFn := p.Location[1].Line[0].Function
	loc := &profile.Location{ID: 99, Mapping: p.Mapping[0], Address: addr, Line: []profile.Line{{Function: double, Line: int64(line)}, {Function: mainFn, Line: 10}}}
	p.Function = append(p.Function, double)
	p.Location = append(p.Location, loc)
	p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{3}})
	p.Mapping[0].BuildID = ""
	o := report.DefaultOptions()
	o.Symbol = `main\.main\b`
	a, err := report.Disassemble(p, o, report.DisasmOptions{Binary: noDWARF, Inlines: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range a.Funcs[0].Insts {
		if in.Addr == addr {
			if len(in.Inlined) != 2 || in.Inlined[0].Func != "main.double" || in.Inlined[1].Func != "main.main" || in.Flat != 3 {
				t.Errorf("instruction %#x: flat %d, chain %+v", addr, in.Flat, in.Inlined)
			}
			return
		}
	}
	t.Errorf("no instruction at %#x", addr)
}
