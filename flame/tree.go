package flame

import (
	"fmt"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/parallel"
	"github.com/perflab/perflab/report"
)

// A Tree is a profile's call tree under one set of report options, built
// once and then queried by View and Functions without the profile.
//
// It is kept as its samples, not as a trie: frames are interned to
// integers and every sample's stack is a run of frame IDs, root first, in
// one array, beside its value. A full trie of a large profile is mostly
// deep, unique tails (20 million nodes, 3 GB, 25 s to build for the
// 500,000-sample benchmark profile), none of them wide enough to draw;
// View grows only the part of the trie that is visible, from the samples
// under the zoom root, dropping a group of samples as soon as it is too
// narrow to see.
type Tree struct {
	SampleType string // as top's Type: header shows it
	Unit       string // unit of the values, e.g. nanoseconds
	Total      int64  // the 100% of top's percentages for the same options
	// Diff is set when some samples belong to a base profile (-diff_base,
	// -base or BuildDiff): views then carry the base's values too.
	Diff bool
	Mean bool // values are means (-mean): sums divided by sums of divisors

	frames []frameInfo
	pkgs   []string
	byName map[string]int32

	start  []int   // sample i's stack is stacks[start[i]:start[i+1]]
	stacks []int32 // frame IDs, root first
	w, d   []int64 // values and divisors (d nil unless Mean)
	base   []bool  // sample i is the base's (nil unless Diff)
}

// frameInfo describes one interned frame.
type frameInfo struct {
	name, file string
	line       int
	pkg        int32
}

// Build returns the call tree of p under o: o's filters (focus, ignore,
// hide, show, show_from, tagfocus, tagignore), sample index, -mean,
// granularity and -noinlines, with pprof's meanings (package report
// applies them). p is left as it is. Samples of a -diff_base base
// (labelled pprof::base=true) and negative samples left by -base make the
// tree a diff: their negated values are the base's.
func Build(p *profile.Profile, o report.Options) (*Tree, error) {
	st, err := report.NewStacks(p, o)
	if err != nil {
		return nil, err
	}
	t := newTree(st.SampleType, st.SampleUnit, st.Total, st.Mean)
	t.addStacks(st, false)
	return t.finish(), nil
}

// BuildDiff returns the call tree of p with base's values beside it, for
// a red/blue differential flame graph: both profiles are filtered with o
// and their frames matched by name. Neither profile is changed. The total
// is the base's, as with -diff_base.
func BuildDiff(p, base *profile.Profile, o report.Options) (*Tree, error) {
	st, err := report.NewStacks(p, o)
	if err != nil {
		return nil, err
	}
	bst, err := report.NewStacks(base, o)
	if err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	t := newTree(st.SampleType, st.SampleUnit, bst.Total, st.Mean)
	t.addStacks(st, false)
	t.addStacks(bst, true)
	t.Diff = true
	return t.finish(), nil
}

func newTree(sampleType, unit string, total int64, mean bool) *Tree {
	return &Tree{SampleType: sampleType, Unit: unit, Total: total, Mean: mean,
		byName: map[string]int32{}, start: []int{0}}
}

// internFrames returns the tree's frame ID of each of st's frames,
// interning them by name.
func (t *Tree) internFrames(st *report.Stacks) []int32 {
	ids := make([]int32, len(st.Frames))
	pkgs := make(map[string]int32, len(t.pkgs))
	for i, p := range t.pkgs {
		pkgs[p] = int32(i)
	}
	for i, f := range st.Frames {
		id, ok := t.byName[f.Name]
		if !ok {
			id = int32(len(t.frames))
			t.byName[f.Name] = id
			pkg := packageOf(f.Function, f.File)
			pi, ok := pkgs[pkg]
			if !ok {
				pi = int32(len(t.pkgs))
				pkgs[pkg] = pi
				t.pkgs = append(t.pkgs, pkg)
			}
			t.frames = append(t.frames, frameInfo{name: f.Name, file: f.File, line: f.Line, pkg: pi})
		}
		ids[i] = id
	}
	return ids
}

// addStacks adds every sample of st; asBase marks them as the base's.
// Samples of a -diff_base base, and negative ones (-base), are the base's
// too, negated. Large profiles are split between goroutines, each
// copying its part's stacks, then joined.
func (t *Tree) addStacks(st *report.Stacks, asBase bool) {
	ids := t.internFrames(st)
	ranges := split(st.Len())
	parts := make([]*Tree, len(ranges))
	parallel.Run(ranges, func(k, lo, hi int) {
		part := &Tree{Mean: t.Mean, start: []int{}}
		part.stacks = make([]int32, 0, st.SizeHint()*(hi-lo)/max(st.Len(), 1)+1024)
		part.addRange(st, ids, asBase, lo, hi)
		parts[k] = part
	})
	if t.stacks == nil && len(parts) > 1 {
		n := 0
		for _, part := range parts {
			n += len(part.stacks)
		}
		t.stacks = make([]int32, 0, n)
	}
	for _, part := range parts {
		t.join(part)
	}
}

// addRange appends samples lo to hi of st, their stacks' frames mapped
// by ids; start holds each sample's end, relative to the part's stacks.
func (t *Tree) addRange(st *report.Stacks, ids []int32, asBase bool, lo, hi int) {
	var buf []int32
	for i := lo; i < hi; i++ {
		w, d, isBase := st.Value(i)
		if w == 0 && d == 0 {
			continue
		}
		toBase := asBase || isBase || w < 0
		if !asBase && w < 0 {
			w, d = -w, -d
		}
		if toBase && t.base == nil {
			t.base = make([]bool, len(t.w), cap(t.w))
		}
		buf = st.Stack(i, buf[:0])
		for _, f := range buf {
			t.stacks = append(t.stacks, ids[f])
		}
		t.start = append(t.start, len(t.stacks))
		t.w = append(t.w, w)
		if t.Mean {
			t.d = append(t.d, d)
		}
		if t.base != nil {
			t.base = append(t.base, toBase)
		}
	}
}

// join appends the samples of part.
func (t *Tree) join(part *Tree) {
	off := len(t.stacks)
	if t.stacks == nil {
		t.stacks = part.stacks
	} else {
		t.stacks = append(t.stacks, part.stacks...)
	}
	for _, e := range part.start {
		t.start = append(t.start, off+e)
	}
	if part.base != nil && t.base == nil {
		t.base = make([]bool, len(t.w), len(t.w)+len(part.w))
	}
	if t.base != nil {
		if part.base == nil {
			part.base = make([]bool, len(part.w))
		}
		t.base = append(t.base, part.base...)
		t.Diff = true
	}
	t.w = append(t.w, part.w...)
	t.d = append(t.d, part.d...)
}

// finish trims the slices' spare capacity.
func (t *Tree) finish() *Tree {
	t.stacks = t.stacks[:len(t.stacks):len(t.stacks)]
	if t.base != nil && len(t.base) < len(t.w) {
		t.base = append(t.base, make([]bool, len(t.w)-len(t.base))...)
	}
	return t
}

// Samples returns the number of samples the tree holds (the base's too).
func (t *Tree) Samples() int { return len(t.w) }

// stack returns sample i's frames, root first.
func (t *Tree) stack(i int) []int32 { return t.stacks[t.start[i]:t.start[i+1]] }

// isBase reports whether sample i is the base's.
func (t *Tree) isBase(i int) bool { return t.base != nil && t.base[i] }

// divide returns a mean as pprof computes it: v when the divisor is 0.
func divide(v, d int64) int64 {
	if d == 0 {
		return v
	}
	return v / d
}

// packageOf returns the package part of a Go symbol ("net/http" of
// "net/http.(*conn).serve"), or of another language's qualified name, or
// the directory of a file name; it colours the frame.
func packageOf(name, file string) string {
	if name == "" {
		if i := strings.LastIndexAny(file, `/\`); i >= 0 {
			return file[:i]
		}
		return file
	}
	slash := strings.LastIndex(name, "/")
	if i := strings.Index(name[slash+1:], "."); i > 0 {
		return name[:slash+1+i]
	}
	if i := strings.Index(name, "::"); i > 0 {
		return name[:i]
	}
	return name
}
