package report

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
)

// seedProfile builds a small profile with inlined frames, recursion,
// labels and numeric labels, for fuzz seeds and tests.
func seedProfile() *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x9000, File: "/bin/prog", HasFunctions: true}
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: "/src/" + name + ".go", StartLine: 10}
	}
	main, work, helper := fn(1, "main.main"), fn(2, "main.work"), fn(3, "main.helper")
	loc := func(id, addr uint64, lines ...profile.Line) *profile.Location {
		return &profile.Location{ID: id, Address: addr, Mapping: m, Line: lines}
	}
	l1 := loc(1, 0x1100, profile.Line{Function: main, Line: 12})
	l2 := loc(2, 0x1200, profile.Line{Function: helper, Line: 14}, profile.Line{Function: work, Line: 20})
	l3 := loc(3, 0x1300, profile.Line{Function: work, Line: 22})
	return &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "contentions", Unit: "count"}, {Type: "delay", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "contentions", Unit: "count"},
		Period:        1,
		TimeNanos:     1_700_000_000_000_000_000,
		DurationNanos: 2_000_000_000,
		Mapping:       []*profile.Mapping{m},
		Function:      []*profile.Function{main, work, helper},
		Location:      []*profile.Location{l1, l2, l3},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l2, l1}, Value: []int64{3, 3000}, Label: map[string][]string{"worker": {"a"}}},
			{Location: []*profile.Location{l3, l3, l1}, Value: []int64{1, 500}, NumLabel: map[string][]int64{"bytes": {2048}}},
			{Location: []*profile.Location{l2, l3, l1}, Value: []int64{-2, -700}},
		},
	}
}

// everyReport runs each report (and JSON) on its own copy of p, ignoring
// their errors: none may panic.
func everyReport(t *testing.T, p *profile.Profile, o Options) {
	for _, k := range []Kind{Top, Tree, Peek, Traces, Tags, Raw, List, Dot} {
		q := p.Copy()
		ko := o
		ko.Symbol = "."
		if k == List {
			// Only search the test's directory: fuzzed file names must not
			// make list read arbitrary files.
			ko.SourcePath, ko.TrimPath = t.TempDir(), ""
			for _, f := range q.Function {
				f.Filename = filepath.Base(f.Filename)
			}
		}
		Generate(io.Discard, q, k, ko)
		if k == Top || k == Tree || k == Peek {
			GenerateJSON(io.Discard, p.Copy(), k, ko)
		}
	}
}

// FuzzReports decodes arbitrary bytes as a profile and runs every report
// on it, with and without filters: no input may panic.
func FuzzReports(f *testing.F) {
	var buf bytes.Buffer
	if err := seedProfile().Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes(), "main", "lines")
	f.Add([]byte("heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3: 4] @ 0x1 0x2\n"), "", "")
	f.Fuzz(func(t *testing.T, data []byte, focus, gran string) {
		p, err := profiles.ParseData("fuzz", data, profiles.Options{MaxBytes: 1 << 20})
		if err != nil || p.CheckValid() != nil || len(p.Sample) > 5000 {
			return
		}
		o := DefaultOptions()
		everyReport(t, p, o)
		o.Focus, o.Granularity, o.Mean, o.TagFocus = focus, gran, true, focus
		everyReport(t, p, o)
	})
}

// FuzzTagFilter compiles arbitrary -tagfocus values and applies them.
func FuzzTagFilter(f *testing.F) {
	for _, s := range []string{"1kb", "1kb:64kb", "bytes=:512", "2mb:", "worker=a,b", "x=1:2", "-5s", "+3"} {
		f.Add(s)
	}
	samples := seedProfile().Sample
	f.Fuzz(func(t *testing.T, v string) {
		m, err := compileTagFilter("tagfocus", v, map[string]string{"bytes": "bytes"}, nil)
		if err != nil || m == nil {
			return
		}
		for _, s := range samples {
			m(s)
		}
	})
}
