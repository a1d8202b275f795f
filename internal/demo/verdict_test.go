package demo

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// fakeProfile builds a profile whose samples have the given stacks (leaf
// first) and values; every function is at line 10 of file.go.
func fakeProfile(sampleTypes []string, stacks [][]string, values [][]int64) *profile.Profile {
	p := &profile.Profile{}
	for _, t := range sampleTypes {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: t, Unit: "count"})
	}
	funcs := map[string]*profile.Function{}
	for i, stack := range stacks {
		s := &profile.Sample{Value: values[i]}
		for _, name := range stack {
			f := funcs[name]
			if f == nil {
				f = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, Filename: "/src/" + name[strings.LastIndex(name, ".")+1:] + ".go"}
				funcs[name] = f
				p.Function = append(p.Function, f)
			}
			loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f, Line: 10}}}
			p.Location = append(p.Location, loc)
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

var (
	findLoops = havlakPrefix + "FindLoops"
	dfs       = havlakPrefix + "DFS"
)

// TestClassify checks the verdict's arithmetic on a profile worked out by
// hand: 80 of 100 samples in map operations (50 under FindLoops, 30 under
// DFS), 10 allocating under FindLoops, 8 in the collector, 2 elsewhere.
func TestClassify(t *testing.T) {
	p := fakeProfile([]string{"samples"}, [][]string{
		{"runtime.mapaccess1_fast64", dfs, findLoops},
		{"internal/runtime/maps.ctrlGroup.matchH2", "runtime.mapassign", findLoops},
		{"runtime.memclrNoHeapPointers", "runtime.mallocgc", "runtime.newobject", findLoops},
		{"runtime.scanObject", "runtime.gcDrain", "runtime.gcBgMarkWorker"},
		{findLoops},
	}, [][]int64{{30}, {50}, {10}, {8}, {2}})
	shares, total := classify(p)
	if total != 100 || len(shares) != 3 {
		t.Fatalf("total %d, %d shares", total, len(shares))
	}
	want := []string{
		"80% of CPU time in map operations under havlak.FindLoops (50%) and havlak.DFS (30%)",
		"10% allocating memory under havlak.FindLoops (10%)",
		"8% in the garbage collector",
	}
	for i, s := range shares {
		if got := s.phrase(i == 0); got != want[i] {
			t.Errorf("share %d: %q, want %q", i, got, want[i])
		}
	}
	// FindLoops: 50 + 10 + 2 attributed; DFS: 30.
	if fn, frac := hottest(p); fn != findLoops || frac != 0.62 {
		t.Errorf("hottest = %s %.2f, want %s 0.62", fn, frac, findLoops)
	}
	v := verdict(shares, "havlak.FindLoops", nil)
	for _, want := range []string{"80% of CPU time in map operations", "replace the maps", "Its hottest function is havlak.FindLoops"} {
		if !strings.Contains(strings.Join(strings.Fields(v), " "), want) {
			t.Errorf("verdict lacks %q:\n%s", want, v)
		}
	}
}

func TestAllocSites(t *testing.T) {
	p := fakeProfile([]string{"alloc_objects", "alloc_space"}, [][]string{
		{"runtime.mallocgc", "runtime.makemap_small", findLoops},
		{"runtime.mallocgc", dfs, findLoops},
		{"runtime.mallocgc", "main.main"},
	}, [][]int64{{1, 600}, {1, 300}, {1, 100}})
	sites, err := allocSites(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 2 || sites[0].Function != findLoops || sites[0].Bytes != 600 || sites[0].Fraction != 0.6 ||
		sites[1].Function != dfs || sites[1].File != "DFS.go" || sites[1].Line != 10 {
		t.Errorf("sites = %+v", sites)
	}
	if _, err := allocSites(fakeProfile([]string{"samples"}, nil, nil)); err == nil {
		t.Error("a profile without alloc_space: no error")
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aaa bbb ccc ddd", 7)
	if got != "aaa bbb\nccc ddd" {
		t.Errorf("wrap = %q", got)
	}
}

// TestAllocSitesTies checks that sites of equal size are listed by file,
// then by line number as a number (line 9 before line 12).
func TestAllocSitesTies(t *testing.T) {
	p := fakeProfile([]string{"alloc_objects", "alloc_space"}, [][]string{{findLoops}, {findLoops}, {dfs}},
		[][]int64{{1, 100}, {1, 100}, {1, 100}})
	p.Sample[0].Location[0].Line[0].Line = 12
	p.Sample[1].Location[0].Line[0].Line = 9
	sites, err := allocSites(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sites {
		got = append(got, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	if want := []string{"DFS.go:10", "FindLoops.go:9", "FindLoops.go:12"}; !slices.Equal(got, want) {
		t.Errorf("sites in order %q, want %q", got, want)
	}
}
