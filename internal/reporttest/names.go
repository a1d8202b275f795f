package reporttest

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

// A FunctionName is a function's two names as a profile stores them.
type FunctionName struct {
	Name, SystemName string
}

// DemangleCases are function names that pprof's symbolizer demangles or
// simplifies, or must keep: C++ names mangled and demangled, names that
// only look like C++, Go generic and method names, and functions whose
// Name and SystemName differ or are empty.
var DemangleCases = []FunctionName{
	{"main.x'<img src=x>", "main.x'<img src=x>"},
	{"foo::bar(int)", "foo::bar(int)"},
	{"std::vector<int>::push_back", "std::vector<int>::push_back"},
	{"std::vector<long>::push_back(long const&)", "std::vector<long>::push_back(long const&)"},
	{"_ZN3foo3barEv", "_ZN3foo3barEv"},
	{"__ZN3foo3bazEv", "__ZN3foo3bazEv"},
	{"_ZNSt6vectorIiSaIiEE9push_backERKi", "_ZNSt6vectorIiSaIiEE9push_backERKi"},
	{"", "_ZN3foo3quxEv"},
	{"pretty<kept>(x)", "_ZN3foo4keptEv"},
	{"std::map<int, int>::find(int)", ""},
	{"_Znotmangled", "_Znotmangled"},
	{"_RNvNtCs1234_7mycrate3foo3bar", "_RNvNtCs1234_7mycrate3foo3bar"},
	{"main.Map[go.shape.int]", "main.Map[go.shape.int]"},
	{"main.Map[...]", "main.Map[...]"},
	{"main.(*T).M", "main.(*T).M"},
	{"main.(*T).M-fm", "main.(*T).M-fm"},
	{"main.(*List[go.shape.int]).Push", "main.(*List[go.shape.int]).Push"},
	{"main.G[go.shape.func(int) string]", "main.G[go.shape.func(int) string]"},
	{"main.F[go.shape.interface { M() }].func1", "main.F[go.shape.interface { M() }].func1"},
	{"type:.eq.[2]interface {}", "type:.eq.[2]interface {}"},
	{"java.lang.Object.<init>", "java.lang.Object.<init>"},
	{"a::b<c(d)>::e)f(g)", "a::b<c(d)>::e)f(g)"},
	{"a::b(c(d)::e", "a::b(c(d)::e"},
	{"x>y<z", "x>y<z"},
	{"runtime.gopark", "runtime.gopark"},
	{"main.main.func1", "main.main.func1"},
}

// WriteNamesProfile writes a CPU profile into dir as NAMES.pb.gz whose
// function i has names[i] and is alone in file /src/fI.go, line I+1, and
// returns its path. Sample i has function i as its leaf, called by
// function i+1 (the last by the first), worth 10·(i+1) samples.
func WriteNamesProfile(t testing.TB, dir string, names []FunctionName) string {
	t.Helper()
	m := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x100000, File: "/bin/names", HasFunctions: true, HasFilenames: true, HasLineNumbers: true}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1,
		Mapping: []*profile.Mapping{m},
	}
	for i, n := range names {
		f := &profile.Function{ID: uint64(i + 1), Name: n.Name, SystemName: n.SystemName, Filename: fmt.Sprintf("/src/f%d.go", i), StartLine: int64(i + 1)}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, &profile.Location{ID: uint64(i + 1), Address: 0x1100 + 0x10*uint64(i), Mapping: m, Line: []profile.Line{{Function: f, Line: int64(i + 1)}}})
	}
	for i, l := range p.Location {
		caller := p.Location[(i+1)%len(p.Location)]
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l, caller}, Value: []int64{10 * int64(i+1)}})
	}
	path := filepath.Join(dir, "names.pb.gz")
	WriteProfile(t, p, path)
	return path
}
