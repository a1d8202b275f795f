package flame

import (
	"errors"
	"fmt"
	"regexp"
	"slices"

	"github.com/perflab/perflab/internal/parallel"
)

// DefaultMinWidth is the narrowest frame a View keeps, as a fraction of
// its root: half a pixel of a 2000-pixel-wide graph.
const DefaultMinWidth = 0.5 / 2000

// DefaultMaxFrames bounds the frames of a View: about 2 MB of JSON.
const DefaultMaxFrames = 40_000

// A Query selects what a View shows.
type Query struct {
	// Path names the frames from the root down to the zoom root; empty
	// is the root. A name the tree has no frame of is an error; when no
	// sample has the whole path (frames of the tree in another order, as
	// a refinement leaves an old zoom), the longest prefix that some
	// sample has is used (View.Path says which).
	Path []string
	// MinWidth is the narrowest frame kept, as a fraction of the zoom
	// root's value; 0 means DefaultMinWidth.
	MinWidth float64
	// MaxDepth bounds the rows below the zoom root; 0 means no bound.
	MaxDepth int
	// MaxFrames bounds the frames; 0 means DefaultMaxFrames. Past it,
	// the narrowest frames are dropped.
	MaxFrames int
	// Search is a regexp (RE2 syntax) of frame names: the View marks the
	// matching frames and sums the samples that pass through one.
	Search string
	// Sandwich names a frame to center the view on: all its callers
	// merged above it (negative depths) and all its callees below.
	Sandwich string
	// Reverse draws the base profile's shape in a diff: what shrank or
	// disappeared rather than what grew.
	Reverse bool
	// Normalize scales the base's values so that its total equals the
	// new profile's, in a diff.
	Normalize bool
}

// A View is the part of a Tree a browser draws: the frames of the zoom
// root's subtree that are wide enough to see, in preorder, each child
// after its parent and before its parent's next child, siblings from the
// widest. Its JSON form is what flame.js draws (see MarshalJSON).
type View struct {
	SampleType string
	Unit       string
	Total      int64 // the tree's Total: the 100% of top's percentages
	Diff       bool
	Reverse    bool
	Mean       bool
	// BaseScale multiplies the base's values (Normalize); 1 otherwise.
	BaseScale float64
	// Path is the zoom root's path, as used (see Query.Path).
	Path []string
	// Sandwich is the frame the view centers on, if any.
	Sandwich string
	// RootValue and RootBase are the whole tree's values (all samples);
	// the zoom root's are Frames[0]'s.
	RootValue, RootBase int64
	// Search is the search regexp; SearchValue the value of the samples
	// that pass through a matching frame (base samples in a reverse view).
	Search      string
	SearchValue int64
	// MinValue is the narrowest width kept.
	MinValue int64
	// Dropped counts the frames dropped to keep within MaxFrames.
	Dropped int
	Frames  []Frame
}

// A Frame is one box of a View.
type Frame struct {
	Name    string
	File    string // where the function is, for hover: file and line
	Line    int
	Package string // colours the box
	Parent  int    // index in View.Frames of the parent, -1 for Frames[0]
	Depth   int    // 0 for the root; negative for a sandwich's callers
	// Offset is the box's left edge and Width its width, in value units
	// from the root's left edge: Cum, or Base in a reverse view.
	Offset, Width  int64
	Cum, Self      int64 // values of the new profile (or the only one)
	Base, BaseSelf int64 // the base's, in a diff (scaled by BaseScale)
	Matched        bool  // the name matches Query.Search
}

// View returns the visible part of the tree that q selects.
func (t *Tree) View(q Query) (*View, error) {
	if q.MinWidth < 0 || q.MinWidth > 1 || q.MaxDepth < 0 || q.MaxFrames < 0 {
		return nil, errors.New("min width must be in [0, 1], max depth and max frames not negative")
	}
	for _, name := range q.Path {
		if _, ok := t.byName[name]; !ok {
			return nil, fmt.Errorf("parameter %s: no frame named %q", ParamPath, name)
		}
	}
	if q.MinWidth == 0 {
		q.MinWidth = DefaultMinWidth
	}
	if q.MaxFrames == 0 {
		q.MaxFrames = DefaultMaxFrames
	}
	v := &View{SampleType: t.SampleType, Unit: t.Unit, Total: t.Total, Diff: t.Diff,
		Reverse: q.Reverse && t.Diff, Mean: t.Mean, BaseScale: 1, Search: q.Search}
	g := &grower{t: t, v: v, q: &q}
	g.init()
	if q.Normalize && v.RootBase != 0 {
		v.BaseScale = float64(v.RootValue) / float64(v.RootBase)
	}
	var matched []bool
	if q.Search != "" {
		rx, err := regexp.Compile(q.Search)
		if err != nil {
			return nil, fmt.Errorf("search regexp: %w", err)
		}
		matched = t.match(rx)
		v.SearchValue = t.matchedValue(matched, v.Reverse)
	}
	if q.Sandwich != "" {
		if err := g.sandwich(q.Sandwich); err != nil {
			return nil, err
		}
	} else {
		g.zoom(q.Path)
	}
	v.trim(q.MaxFrames)
	for i := range v.Frames {
		f := &v.Frames[i]
		if matched != nil && (i > 0 || len(v.Path) > 0 || v.Sandwich != "") {
			if id, ok := t.byName[f.Name]; ok {
				f.Matched = matched[id]
			}
		}
		if v.BaseScale != 1 {
			f.Base = int64(float64(f.Base) * v.BaseScale)
			f.BaseSelf = int64(float64(f.BaseSelf) * v.BaseScale)
		}
	}
	return v, nil
}

// match returns which frames' names rx matches.
func (t *Tree) match(rx *regexp.Regexp) []bool {
	m := make([]bool, len(t.frames))
	for i, f := range t.frames {
		m[i] = rx.MatchString(f.name)
	}
	return m
}

// matchedValue sums the samples (the base's if base) with a matched frame.
func (t *Tree) matchedValue(matched []bool, base bool) int64 {
	ranges := split(len(t.w))
	parts := make([]sums, len(ranges))
	parallel.Run(ranges, func(k, lo, hi int) {
		s := &parts[k]
		for i := lo; i < hi; i++ {
			if t.isBase(i) != base {
				continue
			}
			for _, f := range t.stack(i) {
				if matched[f] {
					s.add(t, int32(i))
					break
				}
			}
		}
	})
	var all sums
	for _, s := range parts {
		all.merge(&s)
	}
	if base {
		return divide(all.bw, all.bd)
	}
	return divide(all.w, all.d)
}

// trim drops the narrowest frames past max, and their descendants.
func (v *View) trim(limit int) {
	if len(v.Frames) <= limit {
		return
	}
	widths := make([]int64, len(v.Frames))
	for i, f := range v.Frames {
		widths[i] = f.Width
	}
	slices.Sort(widths)
	cut := widths[len(widths)-limit]
	kept := make([]int, len(v.Frames)) // new index +1, 0 if dropped
	out := v.Frames[:0]
	for i, f := range v.Frames {
		if f.Width < cut || len(out) >= limit || (f.Parent >= 0 && kept[f.Parent] == 0) {
			v.Dropped++
			continue
		}
		if f.Parent >= 0 {
			f.Parent = kept[f.Parent] - 1
		}
		out = append(out, f)
		kept[i] = len(out)
	}
	v.Frames = out
	v.MinValue = max(v.MinValue, cut)
}

// frameName is the display name of frame f of the tree, "root" for -1.
func (t *Tree) frameName(f int32) string {
	if f < 0 {
		return "root"
	}
	return t.frames[f].name
}

// Frames returns the names of every frame in the tree, for completion.
func (t *Tree) FrameNames() []string {
	names := make([]string, len(t.frames))
	for i, f := range t.frames {
		names[i] = f.name
	}
	return names
}

// HasFrame reports whether the tree has a frame named name.
func (t *Tree) HasFrame(name string) bool {
	_, ok := t.byName[name]
	return ok
}
