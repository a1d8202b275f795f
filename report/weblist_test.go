package report_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/report"
)

// fibSource is a recursive function; fibProfile samples it at depths 1
// to 4, where pprof's weblist would count each sample once per frame.
const fibSource = `package main

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}
`

func fibProfile(t testing.TB) (*profile.Profile, string) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fib.go")
	if err := os.WriteFile(file, []byte(fibSource), 0o644); err != nil {
		t.Fatal(err)
	}
	fib := &profile.Function{ID: 1, Name: "main.fib", Filename: file, StartLine: 3}
	mainFn := &profile.Function{ID: 2, Name: "main.main", Filename: file}
	leaf := &profile.Location{ID: 1, Address: 0x10, Line: []profile.Line{{Function: fib, Line: 5}}}
	call1 := &profile.Location{ID: 2, Address: 0x20, Line: []profile.Line{{Function: fib, Line: 7}}}
	call2 := &profile.Location{ID: 3, Address: 0x30, Line: []profile.Line{{Function: fib, Line: 7}}}
	root := &profile.Location{ID: 4, Address: 0x40, Line: []profile.Line{{Function: mainFn, Line: 1}}}
	stack := func(depth int) []*profile.Location {
		s := []*profile.Location{leaf}
		for i := 1; i < depth; i++ {
			s = append(s, []*profile.Location{call1, call2}[i%2])
		}
		return append(s, root)
	}
	var samples []*profile.Sample
	for d := 1; d <= 4; d++ {
		samples = append(samples, &profile.Sample{Location: stack(d), Value: []int64{int64(d)}})
	}
	samples = append(samples, &profile.Sample{Location: []*profile.Location{root}, Value: []int64{10}})
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Function:   []*profile.Function{fib, mainFn},
		Location:   []*profile.Location{leaf, call1, call2, root},
		Sample:     samples,
	}, file
}

// TestListSourceRecursion: each sample counts once per line and once per
// function — the function's cum is top's, not the sum of its lines as in
// list's (pprof-compatible) header — and the lines keep list's values.
func TestListSourceRecursion(t *testing.T) {
	p, _ := fibProfile(t)
	o := report.DefaultOptions()
	o.Symbol = `main\.fib`
	s, err := report.ListSource(p.Copy(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Funcs) != 1 {
		t.Fatalf("%d funcs", len(s.Funcs))
	}
	f := s.Funcs[0]
	// Samples at depth 1..4 with values 1..4 all pass through fib.
	if s.Total != 20 || f.Flat != 10 || f.Cum != 10 {
		t.Errorf("total %d, fib flat %d cum %d; want 20, 10, 10", s.Total, f.Flat, f.Cum)
	}
	var list bytes.Buffer
	if err := report.Generate(&list, p.Copy(), report.List, o); err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, l := range f.Lines {
		sum += l.Cum
		if l.Cum > f.Cum {
			t.Errorf("line %d: cum %d above the function's %d", l.Line, l.Cum, f.Cum)
		}
		dot := func(v int64) string {
			if v == 0 {
				return "."
			}
			return s.Format(v)
		}
		if want := fmt.Sprintf("%10s %10s %6d:%s\n", dot(l.Flat), dot(l.Cum), l.Line, l.Text); !strings.Contains(list.String(), want) {
			t.Errorf("line %q not in list's output:\n%s", want, list.String())
		}
	}
	if sum <= f.Cum || !strings.Contains(list.String(), fmt.Sprintf("%s (flat, cum)", s.Format(sum))) {
		t.Errorf("lines add up to %d (function %d): the profile does not show list's double count:\n%s", sum, f.Cum, list.String())
	}
	if f.Lines[0].Line != 3 || f.Lines[len(f.Lines)-1].Line != 8 {
		t.Errorf("lines %d..%d, want list's 3..8 (StartLine to the end of the file)", f.Lines[0].Line, f.Lines[len(f.Lines)-1].Line)
	}
}

// TestAddAssembly places instructions under the listed function's lines:
// an instruction of inlined code under its caller's line with the call,
// one of a function's own code under its line.
func TestAddAssembly(t *testing.T) {
	p, file := fibProfile(t)
	o := report.DefaultOptions()
	o.Symbol = `main\.fib`
	s, err := report.ListSource(p, o)
	if err != nil {
		t.Fatal(err)
	}
	a := &report.Assembly{Funcs: []report.AsmFunc{{Name: "main.fib", Insts: []report.AsmInst{
		{Addr: 0x10, Text: "CMPQ", File: file, Line: 4, Flat: 1},
		{Addr: 0x20, Text: "ADDQ", File: "other.go", Line: 99, Inlined: []disasm.Frame{{Func: "main.helper", File: "other.go", Line: 99}, {Func: "main.fib", File: file, Line: 7}}},
		{Addr: 0x30, Text: "RET", File: file, Line: 99}, // beyond the file: dropped
	}}}}
	s.AddAssembly(a)
	got := map[int]string{}
	for _, l := range s.Funcs[0].Lines {
		for _, in := range l.Insts {
			got[l.Line] += fmt.Sprintf("%s%v;", in.Text, in.Calls)
		}
	}
	want := map[int]string{4: "CMPQ[];", 7: "ADDQ[{main.helper other.go 99}];"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("instructions by line %v, want %v", got, want)
	}
}

func ExampleListSource() {
	fib := &profile.Function{ID: 1, Name: "main.fib", Filename: "fib.go"}
	call := &profile.Location{ID: 1, Line: []profile.Line{{Function: fib, Line: 7}}}
	leaf := &profile.Location{ID: 2, Line: []profile.Line{{Function: fib, Line: 5}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Function:   []*profile.Function{fib},
		Location:   []*profile.Location{call, leaf},
		Sample:     []*profile.Sample{{Location: []*profile.Location{leaf, call, call, call}, Value: []int64{5}}},
	}
	o := report.DefaultOptions()
	o.Symbol = "fib"
	s, err := report.ListSource(p, o)
	if err != nil {
		panic(err)
	}
	f := s.Funcs[0]
	fmt.Printf("%s: flat %s, cum %s (%s of total); source: %v\n", f.Name, s.Format(f.Flat), s.Format(f.Cum), strings.TrimSpace(s.Percent(f.Cum)), f.Err != nil)
	for _, l := range f.Lines {
		fmt.Printf("line %d: flat %d, cum %d\n", l.Line, l.Flat, l.Cum)
	}
	// Output:
	// main.fib: flat 5, cum 5 (100% of total); source: true
	// line 5: flat 5, cum 5
	// line 7: flat 0, cum 5
}

// BenchmarkListSource is the web source view's aggregation of a hot
// function on the benchmark profile (compare BenchmarkList, the text).
func BenchmarkListSource(b *testing.B) {
	p := loadBench(b)
	o := report.DefaultOptions()
	o.Symbol = hotFunction(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := report.ListSource(p, o); err != nil {
			b.Fatal(err)
		}
	}
}
