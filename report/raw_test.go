package report

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// everyField is a profile using every field the raw text shows: comments,
// a doc URL, times, a default sample type, string and numeric labels with
// and without units, folded and line-less locations, inlined lines, a
// line without a function and a function renamed from its system name.
func everyField() *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x800000, Offset: 0x1000, File: "/bin/x", BuildID: "abc",
		HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	f1 := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: "/src/main.go", StartLine: 3}
	f2 := &profile.Function{ID: 2, Name: "main.(*T).f", SystemName: "main.(*T).f-fm", Filename: "/src/t.go"}
	l1 := &profile.Location{ID: 1, Address: 0x401000, Mapping: m, Line: []profile.Line{{Function: f2, Line: 7, Column: 3}, {Function: f1, Line: 12}}}
	l2 := &profile.Location{ID: 2, Address: 0x402000, Mapping: m, IsFolded: true}
	l3 := &profile.Location{ID: 30, Line: []profile.Line{{Line: 1}}}
	return &profile.Profile{
		Comments: []string{"first", "second comment"}, DocURL: "https://example.com/doc",
		SampleType:        []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		DefaultSampleType: "alloc_space",
		PeriodType:        &profile.ValueType{Type: "space", Unit: "bytes"}, Period: 524288,
		TimeNanos: 1_700_000_000_123_456_789, DurationNanos: 12_345_678_901,
		Mapping:  []*profile.Mapping{m, {ID: 2, Start: 0x7f00, Limit: 0x7fff}},
		Function: []*profile.Function{f1, f2},
		Location: []*profile.Location{l1, l2, l3},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l1, l2, l3}, Value: []int64{3, -4096},
				Label:    map[string][]string{"handler": {"/a", "/b"}, "alpha": {"x"}},
				NumLabel: map[string][]int64{"bytes": {64, 128}, "count": {1}, "ms": {5}},
				NumUnit:  map[string][]string{"bytes": {"bytes", "kilobytes"}, "ms": {}}},
			{Location: []*profile.Location{l2}, Value: []int64{1, 1 << 40}},
			{Value: []int64{0, 0}, Label: map[string][]string{"only": {"labels"}}},
		},
	}
}

// TestRawLikeString checks that writeRaw writes what profile.Profile.String
// returns, which pprof -raw prints, on every field and on generated
// profiles with inlining and labels.
func TestRawLikeString(t *testing.T) {
	gen, err := profgen.Generate(profgen.Config{Seed: 2, Samples: 2000, Locations: 800, Functions: 200, MaxDepth: 40, InlinePercent: 30, LabelPercent: 30})
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*profile.Profile{"every field": everyField(), "generated": gen, "empty": {}} {
		var got bytes.Buffer
		if err := writeRaw(&got, p); err != nil {
			t.Fatal(err)
		}
		if want := p.String(); got.String() != want {
			t.Errorf("%s: writeRaw differs from String:\n--- got\n%s\n--- want\n%s", name, got.String(), want)
		}
	}
}

// deepStack returns a profile of one sample whose stack is n frames deep.
func deepStack(n int) *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x1000_0000, File: "/bin/deep", HasFunctions: true}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Mapping: []*profile.Mapping{m},
	}
	s := &profile.Sample{Value: []int64{1, 10_000_000}}
	for i := range n {
		name := fmt.Sprintf("main.f%d", i)
		fn := &profile.Function{ID: uint64(i + 1), Name: name, SystemName: name, Filename: "/src/deep.go"}
		loc := &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 + i), Mapping: m, Line: []profile.Line{{Function: fn, Line: int64(i + 1)}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		s.Location = append(s.Location, loc)
	}
	p.Sample = []*profile.Sample{s}
	return p
}

// TestRawDeepStack checks that raw on a 200,000-frame stack takes well
// under the 25 s that profile.Profile.String's quadratic concatenation
// takes on it, and still writes what String would.
func TestRawDeepStack(t *testing.T) {
	p := deepStack(200_000)
	var got bytes.Buffer
	// Linear, not quadratic, judged by the bytes allocated rather than by
	// time (a loaded machine makes any time bound flaky): building the
	// line by repeated concatenation allocates the square of its length.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := Generate(&got, p, Raw, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<20 {
		t.Errorf("raw on a 200,000-frame stack allocated %d MB; want it linear, well under 256 MB", n>>20)
	}
	line := bytes.SplitN(got.Bytes(), []byte("\n"), 6)[4]
	if want := "          1   10000000: 1 2 3 "; !bytes.HasPrefix(line, []byte(want)) || !bytes.HasSuffix(line, []byte(" 199999 200000 ")) {
		t.Errorf("the sample's line starts %q; want %q ... 200000", line[:min(len(line), 40)], want)
	}
}

// BenchmarkRawDeepStack times raw on one stack of 10,000 and of 100,000
// frames: linear, the second takes about 10 times the first (pprof's
// String, 100 times).
func BenchmarkRawDeepStack(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := deepStack(n)
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				if err := writeRaw(&buf, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
