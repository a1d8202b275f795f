package store_test

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/store"
)

var allocSpace = store.ProfileType{Name: "memory", SampleType: "alloc_space", SampleUnit: "bytes", PeriodType: "space", PeriodUnit: "bytes"}

// memoryProfile turns a generated CPU profile into a heap profile with
// the given sample types, values derived from the CPU ones.
func memoryProfile(t *testing.T, seed uint64, types ...string) *profile.Profile {
	t.Helper()
	cfg := profgen.Small
	cfg.Seed, cfg.Samples, cfg.Locations = seed, 300, 300
	p, err := profgen.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p.PeriodType = &profile.ValueType{Type: "space", Unit: "bytes"}
	p.Period = 512 * 1024
	p.SampleType = nil
	for _, st := range types {
		unit := "bytes"
		if st == "alloc_objects" || st == "inuse_objects" {
			unit = "count"
		}
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: st, Unit: unit})
	}
	for _, s := range p.Sample {
		n := s.Value[0]
		s.Value = make([]int64, len(types))
		for i := range s.Value {
			s.Value[i] = n * int64(i+1) * 1000
		}
	}
	return p
}

// only returns p with only its sample type typ.
func only(p *profile.Profile, typ string) *profile.Profile {
	q := p.Copy()
	i := slices.IndexFunc(q.SampleType, func(vt *profile.ValueType) bool { return vt.Type == typ })
	q.SampleType = q.SampleType[i : i+1]
	q.DefaultSampleType = typ
	for _, s := range q.Sample {
		s.Value = s.Value[i : i+1]
	}
	return q
}

// TestComposeMixedTypes checks the compatibility rule: profiles of one
// selection with different lists of sample types merge into a profile of
// the selected type alone, the merge of each profile's values of that
// type; profiles with one list keep all its types.
func TestComposeMixedTypes(t *testing.T) {
	heap := memoryProfile(t, 1, "alloc_objects", "alloc_space", "inuse_objects", "inuse_space")
	pushed := memoryProfile(t, 2, "alloc_objects", "alloc_space")
	ps := []*profile.Profile{heap, pushed, heap.Copy()}
	got := composeAll(t, ps, []int{2, 0, 1}, allocSpace)
	if len(got.SampleType) != 1 || got.SampleType[0].Type != "alloc_space" || got.DefaultSampleType != "alloc_space" {
		t.Fatalf("sample types %v (default %q), want alloc_space alone", got.SampleType, got.DefaultSampleType)
	}
	want, err := profile.Merge([]*profile.Profile{only(heap, "alloc_space"), only(pushed, "alloc_space"), only(heap, "alloc_space")})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := reports(t, got), reports(t, want); g != w {
		t.Errorf("mixed types: reports differ from profile.Merge's of the alloc_space values at %s", reporttest.FirstDiff([]byte(g), []byte(w)))
	}
	same := composeAll(t, []*profile.Profile{heap, heap.Copy()}, []int{0, 1}, allocSpace)
	if len(same.SampleType) != 4 || same.DefaultSampleType != "alloc_space" {
		t.Errorf("one list of types: got %v (default %q), want the 4 types, default alloc_space", same.SampleType, same.DefaultSampleType)
	}
}

// TestMergedHeaderOrderFree checks that adding merged headers in any
// grouping and order gives the same result, so stores may keep rollups.
func TestMergedHeaderOrderFree(t *testing.T) {
	headers := make([]store.MergedHeader, 8)
	for i := range headers {
		h := store.Header{
			SampleTypes:   []store.ValueType{{"samples", "count"}, {"cpu", "nanoseconds"}},
			PeriodType:    store.ValueType{"cpu", "nanoseconds"},
			Period:        int64(10_000_000 + i%3),
			TimeNanos:     int64((i * 7919) % 13),
			DurationNanos: int64(i),
			Comments:      []string{[]string{"a", "b", "c"}[i%3]},
			DropFrames:    []string{"", "x"}[i%2],
			DocURL:        []string{"", "https://go.dev/doc"}[i%2],
			Mappings:      []store.Hash{store.Hash(i%2 + 1), store.Hash(i + 10)},
		}
		if i == 5 {
			h.SampleTypes = h.SampleTypes[1:]
		}
		headers[i] = store.MergeHeader(&h, store.OrderOf(time.Unix(int64(i%4), 0), string(rune('a'+i))))
	}
	var want store.MergedHeader
	for i := range headers {
		want.Add(&headers[i])
	}
	if !want.Mixed || want.DurationNanos != 28 || want.Profiles != 8 || want.TimeNanos != 1 || len(want.Comments) != 3 {
		t.Fatalf("merged header %+v", want)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		perm := r.Perm(len(headers))
		cut := r.IntN(len(headers))
		var a, b store.MergedHeader
		for _, i := range perm[:cut] {
			a.Add(&headers[i])
		}
		for _, i := range perm[cut:] {
			b.Add(&headers[i])
		}
		b.Add(&a)
		if !reflect.DeepEqual(b, want) {
			t.Fatalf("order %v, cut at %d:\n got %+v\nwant %+v", perm, cut, b, want)
		}
	}
}

// TestHashStable pins the hash of each kind of part: stores keep these
// values, so a change of the encoding must be a deliberate migration.
func TestHashStable(t *testing.T) {
	fn := store.Function{Name: "main.work", SystemName: "main.work", Filename: "/src/main.go", StartLine: 10}
	m := store.Mapping{Start: 0x400000, Limit: 0x7ffc00, File: "/bin/app", BuildID: "abc", HasFunctions: true}
	loc := store.Location{Mapping: m.Key(), Address: 0x1234, Lines: []store.Line{{Function: fn.Hash(), Line: 12}}}
	ls := store.LabelSet{Strings: []store.StringLabel{{Key: "route", Values: []string{"/a"}}},
		Numbers: []store.NumberLabel{{Key: "bytes", Values: []int64{1024}, Units: []string{"bytes"}}}}
	for _, tc := range []struct {
		what string
		got  store.Hash
		want string
	}{
		{"function", fn.Hash(), "7502ac534952587c"},
		{"mapping", m.Hash(), "221f60bc70d83562"},
		{"mapping key", m.Key(), "55a4652663370a2b"},
		{"location", loc.Hash(), "bd8e6cbcd7155f76"},
		{"stack", store.Stack{loc.Hash(), loc.Hash()}.Hash(), "1f63585d8e03064f"},
		{"label set", ls.Hash(), "6d3b9831747665a7"},
	} {
		if tc.got.String() != tc.want {
			t.Errorf("%s hash %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if h := (store.LabelSet{}).Hash(); h != 0 {
		t.Errorf("empty label set hash %s, want 0", h)
	}
	moved := m
	moved.Start, moved.Limit = 0x7f0000400000, 0x7f0000800000 // size rounded alike
	if moved.Key() != m.Key() || moved.Hash() == m.Hash() {
		t.Errorf("a mapping loaded elsewhere must keep its Key and change its Hash")
	}
}

func TestBucketStart(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		step time.Duration
		want int64
	}{
		{time.Unix(125, 0), time.Minute, 120},
		{time.Unix(120, 0), time.Minute, 120},
		{time.Unix(-1, 0), time.Minute, -60},
		{time.Unix(3599, 999), time.Hour, 0},
	} {
		if got := store.BucketStart(tc.t, tc.step); got.Unix() != tc.want || got.Location() != time.UTC {
			t.Errorf("BucketStart(%d, %v) = %v, want %d UTC", tc.t.Unix(), tc.step, got, tc.want)
		}
	}
}
