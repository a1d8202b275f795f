package reporttest

import (
	"os"
	"testing"

	"github.com/google/pprof/profile"
)

// OneSample returns a CPU profile (samples/count, cpu/nanoseconds, period
// 10ms) of one sample, 1 and 10ms, in one function, main.main, at line 3
// of file.
func OneSample(file string) *profile.Profile {
	fn := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: file, StartLine: 1}
	loc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn, Line: 3}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Function: []*profile.Function{fn},
		Location: []*profile.Location{loc},
		Sample:   []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1, 10_000_000}}},
	}
}

// MappedSample is OneSample("main.go") with its location at 0x401000 in
// a mapping of binary, from 0x400000 to 0x500000: a profile whose binary
// disasm and the source view open.
func MappedSample(binary string) *profile.Profile {
	p := OneSample("main.go")
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x500000, File: binary}
	p.Mapping = []*profile.Mapping{m}
	p.Location[0].Mapping, p.Location[0].Address = m, 0x401000
	return p
}

// ReadProfile parses the profile in the file path, failing t if it cannot.
func ReadProfile(t testing.TB, path string) *profile.Profile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// WriteProfile writes p to the file path (gzipped proto, as pprof writes
// profiles), failing t if it cannot.
func WriteProfile(t testing.TB, p *profile.Profile, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
