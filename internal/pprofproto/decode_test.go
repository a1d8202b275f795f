package pprofproto

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// checkSame decodes data with Decode and with profile.ParseData and
// fails unless both give the same profile or the same error.
func checkSame(t testing.TB, name string, data []byte) *profile.Profile {
	t.Helper()
	want, wantErr := profile.ParseData(data)
	got, gotErr := Decode(data)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("%s: Decode error %v, ParseData error %v", name, gotErr, wantErr)
	}
	if wantErr != nil {
		return nil
	}
	if err := sameProfile(want, got); err != nil {
		t.Fatalf("%s: Decode differs from ParseData: %v", name, err)
	}
	return got
}

// mustBeFast fails unless Decode reads data itself rather than handing it
// to ParseData: valid profile.proto must take the fast path.
func mustBeFast(t testing.TB, name string, data []byte) {
	t.Helper()
	if IsGzip(data) {
		var err error
		if data, err = Gunzip(data, -1); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, ok := decodeProto(data); !ok {
		t.Fatalf("%s: valid profile.proto not decoded by the fast path", name)
	}
}

func encode(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDecodeGenerated(t *testing.T) {
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	raw := encode(t, p)
	got := checkSame(t, "uncompressed", raw)
	mustBeFast(t, "uncompressed", raw)
	if len(got.Sample) != profgen.Small.Samples || len(got.Location) != profgen.Small.Locations {
		t.Fatalf("decoded %d samples, %d locations; generated %d, %d",
			len(got.Sample), len(got.Location), profgen.Small.Samples, profgen.Small.Locations)
	}
	var gz bytes.Buffer
	if err := p.Write(&gz); err != nil {
		t.Fatal(err)
	}
	checkSame(t, "gzipped", gz.Bytes())
}

// TestDecodeParallel decodes a profile with enough samples to be split
// between goroutines, and one with an error in its last sample.
func TestDecodeParallel(t *testing.T) {
	defer func(n int) { samplesPerWorker = n }(samplesPerWorker)
	samplesPerWorker = 500
	c := profgen.Config{Seed: 5, Samples: 3 * samplesPerWorker, Locations: 400, Functions: 100,
		MaxDepth: 6, SourceRoot: "/src"}
	p, err := profgen.Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	checkSame(t, "parallel", encode(t, p))
	mustBeFast(t, "parallel", encode(t, p))
	p.Sample[len(p.Sample)-1].Value = nil
	if checkSame(t, "bad last sample", encode(t, p)) != nil {
		t.Fatal("decoded a sample without values")
	}
}

// fullProfile uses every field of profile.proto, sparse IDs (above the
// number of entries), numeric labels with and without units, several
// values for one label key, and a kernel mapping.
func fullProfile() *profile.Profile {
	m1 := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x9000, Offset: 0x10, File: "/bin/app",
		BuildID: "abc", HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	m2 := &profile.Mapping{ID: 77, Start: 0xffff0000, Limit: 0xffffffff, File: "[kernel.kallsyms]_stext"}
	f1 := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: "/src/main.go", StartLine: 3}
	f2 := &profile.Function{ID: 500, Name: "main.inl", SystemName: "main.inl", Filename: "/src/main.go", StartLine: 9}
	l1 := &profile.Location{ID: 1, Mapping: m1, Address: 0x1234, Line: []profile.Line{{Function: f2, Line: 10, Column: 4}, {Function: f1, Line: 5}}}
	l2 := &profile.Location{ID: 900, Mapping: m2, Address: 0xffff0010, IsFolded: true}
	l3 := &profile.Location{ID: 3, Address: 0x99, Line: []profile.Line{{Function: f1, Line: 6}}}
	return &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
		DefaultSampleType: "alloc_space",
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l1, l3}, Value: []int64{1, 2},
				Label:    map[string][]string{"a": {"x", "y"}, "b": {"z"}},
				NumLabel: map[string][]int64{"bytes": {8, 16}, "n": {3}},
				NumUnit:  map[string][]string{"bytes": {"bytes", "kilobytes"}}},
			{Location: []*profile.Location{l2}, Value: []int64{-3, 0}, NumLabel: map[string][]int64{"n": {1}}},
			{Value: []int64{5, 6}},
		},
		Mapping:       []*profile.Mapping{m1, m2},
		Location:      []*profile.Location{l1, l2, l3},
		Function:      []*profile.Function{f1, f2},
		Comments:      []string{"first", "second"},
		DocURL:        "https://example.com/doc",
		DropFrames:    "runtime\\..*",
		KeepFrames:    "main",
		TimeNanos:     12345,
		DurationNanos: 678,
		PeriodType:    &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:        524288,
	}
}

func TestDecodeEveryField(t *testing.T) {
	got := checkSame(t, "full", encode(t, fullProfile()))
	mustBeFast(t, "full", encode(t, fullProfile()))
	if got.Mapping[1].KernelRelocationSymbol != "_stext" || len(got.Sample[0].NumUnit["bytes"]) != 2 {
		t.Fatalf("decoded profile lost fields: %v", got)
	}
	noPeriod := fullProfile()
	noPeriod.PeriodType = nil
	checkSame(t, "no period type", encode(t, noPeriod))
}

// TestDecodeBad checks that Decode fails as ParseData does, with the same
// message, on inputs that are not valid profiles.
func TestDecodeBad(t *testing.T) {
	good := encode(t, fullProfile())
	var gz bytes.Buffer
	fullProfile().Write(&gz)
	cases := map[string][]byte{
		"empty":           nil,
		"text":            []byte("hello, world\n"),
		"truncated":       good[:len(good)/2],
		"truncated gzip":  gz.Bytes()[:gz.Len()/2],
		"corrupt gzip":    append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}, bytes.Repeat([]byte{0xff}, 20)...),
		"absurd length":   {0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x08},
		"long varint":     bytes.Repeat([]byte{0x80}, 11),
		"group wire type": {0x0b, 0x00},
		"concatenated":    append(append([]byte{}, good...), good...),
	}
	mutate := func(name string, f func(p *profile.Profile)) {
		p := fullProfile()
		f(p)
		cases[name] = encode(t, p)
	}
	mutate("zero location ID", func(p *profile.Profile) { p.Location[0].ID = 0 })
	mutate("duplicate function ID", func(p *profile.Profile) { p.Function[1].ID = 1 })
	mutate("duplicate mapping ID", func(p *profile.Profile) { p.Mapping[1].ID = 1 })
	mutate("missing location", func(p *profile.Profile) { p.Location = p.Location[1:] })
	mutate("missing function", func(p *profile.Profile) { p.Function = p.Function[:1] })
	mutate("too few values", func(p *profile.Profile) { p.Sample[0].Value = p.Sample[0].Value[:1] })
	mutate("no sample types", func(p *profile.Profile) { p.SampleType = nil })
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if p := checkSame(t, name, data); p != nil {
				t.Fatalf("%s: decoded a bad input", name)
			}
		})
	}
}
