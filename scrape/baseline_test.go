package scrape

import (
	"maps"
	"runtime"
	"slices"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/fleetgen"
)

// TestBaselineMemory bounds what the scraper keeps of each target between
// two scrapes of a cumulative profile: a thousand targets' allocs
// profiles of a few thousand deep stacks each took 133 MB while their
// stacks were kept as strings; a baseline now takes at most 64 bytes a
// stack of 4 sample types, whatever the stack's depth.
func TestBaselineMemory(t *testing.T) {
	f, err := fleetgen.New(fleetgen.Config{Samples: 20000})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := f.Profile("allocs", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := sp.Profile
	cum := func(vt *profile.ValueType) bool { return cumulativeType("memory", vt) }
	const targets = 20
	bs := make([]baseline, targets)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for i := range bs {
		bs[i].delta(p, cum)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	perStack := float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)) / float64(targets*len(p.Sample))
	t.Logf("%d stacks, %.0f bytes a stack of each baseline", len(p.Sample), perStack)
	if perStack > 64 {
		t.Errorf("a baseline takes %.0f bytes a stack of %d sample types, want at most 64", perStack, len(p.SampleType))
	}
	runtime.KeepAlive(bs)
}

// TestDeltaOfManyStacks checks the growth between two scrapes of a
// realistic allocs profile (hundreds of deep stacks, with labels): the
// second is the first merged with another, whose allocations the delta
// must give stack by stack, the in-use columns as they are.
func TestDeltaOfManyStacks(t *testing.T) {
	f, err := fleetgen.New(fleetgen.Config{Samples: 4000})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := f.Profile("allocs", 0, 0)
	more, _ := f.Profile("allocs", 0, 1)
	second, err := profile.Merge([]*profile.Profile{first.Profile, more.Profile})
	if err != nil {
		t.Fatal(err)
	}
	cum := func(vt *profile.ValueType) bool { return cumulativeType("memory", vt) }
	var b baseline
	if _, ok := b.delta(first.Profile, cum); ok {
		t.Fatal("the first scrape gave a delta")
	}
	got, ok := b.delta(second, cum)
	if !ok {
		t.Fatal("no delta at the second scrape")
	}
	// By stack (the functions' names, outermost last) and column, without
	// the stacks whose columns are all zero.
	byStack := func(p *profile.Profile, cols ...int) map[string][]int64 {
		m := map[string][]int64{}
		for _, s := range p.Sample {
			var k string
			for _, l := range s.Location {
				for _, ln := range l.Line {
					k += ln.Function.Name + ";"
				}
			}
			if m[k] == nil {
				m[k] = make([]int64, len(cols))
			}
			for i, c := range cols {
				m[k][i] += s.Value[c]
			}
		}
		maps.DeleteFunc(m, func(_ string, vs []int64) bool { return !slices.ContainsFunc(vs, func(v int64) bool { return v != 0 }) })
		return m
	}
	if g, w := byStack(got, 0, 1), byStack(more.Profile, 0, 1); !maps.EqualFunc(g, w, slices.Equal) {
		t.Errorf("alloc columns of the delta: %d stacks, want those of the profile merged in (%d stacks)", len(g), len(w))
	}
	if g, w := byStack(got, 2, 3), byStack(second, 2, 3); !maps.EqualFunc(g, w, slices.Equal) {
		t.Errorf("in-use columns of the delta: %d stacks, want the second scrape's (%d)", len(g), len(w))
	}
}
