package flame

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// A cursor is one sample's place in its stack while a view grows: the
// next frame is t.stacks[pos], and n frames are left.
type cursor struct {
	s   int32
	n   int32
	pos int
}

// sums are the values of a group of samples.
type sums struct {
	w, d, bw, bd int64 // new and base values and divisors
	cnt          int32 // cursors
}

func (s *sums) add(t *Tree, i int32) {
	if t.isBase(int(i)) {
		s.bw += t.w[i]
		if t.d != nil {
			s.bd += t.d[i]
		}
	} else {
		s.w += t.w[i]
		if t.d != nil {
			s.d += t.d[i]
		}
	}
	s.cnt++
}

func (s *sums) merge(o *sums) {
	s.w, s.d, s.bw, s.bd, s.cnt = s.w+o.w, s.d+o.d, s.bw+o.bw, s.bd+o.bd, s.cnt+o.cnt
}

// A work item is a visible node whose children are still to be grown.
type work struct {
	lo, hi int // its cursors
	frame  int32
	depth  int
	parent int
	offset int64
	sums   sums
}

// A grower grows the visible part of a tree, from groups of cursors:
// a node's cursors are split by their next frame, and each group wide
// enough to see becomes a child; the others are dropped at once.
type grower struct {
	t *Tree
	v *View
	q *Query

	acc     []sums  // by frame, for the node being split
	slot    []int32 // by frame: -1 untouched, -2 touched, else child index
	touched []int32
	scratch []cursor
	cut     int64
}

func (g *grower) init() {
	t := g.t
	g.acc = make([]sums, len(t.frames))
	g.slot = make([]int32, len(t.frames))
	for i := range g.slot {
		g.slot[i] = -1
	}
	var all sums
	for i := range t.w {
		all.add(t, int32(i))
	}
	g.v.RootValue, g.v.RootBase = divide(all.w, all.d), divide(all.bw, all.bd)
}

// width is the drawn width of a group: the new values, or the base's in
// a reverse view.
func (g *grower) width(s *sums) int64 {
	if g.v.Reverse {
		return s.bw
	}
	return s.w
}

func (g *grower) setCut(root *sums) {
	g.cut = max(1, int64(math.Ceil(g.q.MinWidth*float64(g.width(root)))))
	g.v.MinValue = g.cut
}

// zoom grows the subtree of the longest prefix of path that some sample has.
func (g *grower) zoom(path []string) {
	t := g.t
	ids := make([]int32, 0, len(path))
	for _, name := range path {
		id, ok := t.byName[name]
		if !ok {
			break
		}
		ids = append(ids, id)
	}
	var cur []cursor
	for ; ; ids = ids[:len(ids)-1] {
		cur = t.cursorsUnder(ids, cur[:0])
		if len(cur) > 0 || len(ids) == 0 {
			break
		}
	}
	g.v.Path = make([]string, len(ids))
	frame := int32(-1)
	for i, id := range ids {
		g.v.Path[i] = t.frames[id].name
		frame = id
	}
	var root sums
	for _, c := range cur {
		root.add(t, c.s)
	}
	g.setCut(&root)
	g.grow(cur, work{lo: 0, hi: len(cur), frame: frame, parent: -1, sums: root}, true, 1)
}

// cursorsUnder appends a cursor after the prefix for every sample whose
// stack starts with the frames prefix.
func (t *Tree) cursorsUnder(prefix []int32, cur []cursor) []cursor {
	for i := range t.w {
		st := t.stack(i)
		if len(st) < len(prefix) || !slices.Equal(st[:len(prefix)], prefix) {
			continue
		}
		cur = append(cur, cursor{s: int32(i), n: int32(len(st) - len(prefix)), pos: t.start[i] + len(prefix)})
	}
	return cur
}

// sandwich grows the callers and the callees of frame name, merged: each
// sample that has the frame counts once, at its outermost occurrence.
func (g *grower) sandwich(name string) error {
	t := g.t
	id, ok := t.byName[name]
	if !ok {
		return fmt.Errorf("sandwich: no frame named %q", name)
	}
	g.v.Sandwich = name
	var callers, callees []cursor
	var center sums
	for i := range t.w {
		st := t.stack(i)
		k := slices.Index(st, id)
		if k < 0 {
			continue
		}
		center.add(t, int32(i))
		base := t.start[i]
		callees = append(callees, cursor{s: int32(i), n: int32(len(st) - k - 1), pos: base + k + 1})
		callers = append(callers, cursor{s: int32(i), n: int32(k), pos: base + k - 1})
	}
	g.setCut(&center)
	g.grow(callees, work{lo: 0, hi: len(callees), frame: id, parent: -1, sums: center}, true, 1)
	g.grow(callers, work{lo: 0, hi: len(callers), frame: id, parent: -1, sums: center}, false, -1)
	return nil
}

// grow emits root (if emit; else it is Frames[0]) and its visible
// descendants in preorder. Cursors move by step through the stacks, and
// depths grow by step: callers of a sandwich have negative depths.
func (g *grower) grow(cur []cursor, root work, emit bool, step int) {
	stack := []work{root}
	for len(stack) > 0 {
		w := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		idx := 0
		if emit || w.parent >= 0 {
			idx = g.emit(&w)
		}
		if md := g.q.MaxDepth; md > 0 && w.depth*step >= md {
			continue
		}
		kids, self := g.split(cur, &w, step)
		f := &g.v.Frames[idx]
		if idx != 0 || emit {
			f.Self, f.BaseSelf = divide(self.w, self.d), divide(self.bw, self.bd)
		}
		off := w.offset
		first := len(stack)
		for i := range kids {
			kids[i].parent, kids[i].offset, kids[i].depth = idx, off, w.depth+step
			off += g.width(&kids[i].sums)
			stack = append(stack, kids[i])
		}
		slices.Reverse(stack[first:])
	}
}

// emit appends w's frame to the view and returns its index.
func (g *grower) emit(w *work) int {
	t := g.t
	f := Frame{Name: t.frameName(w.frame), Parent: w.parent, Depth: w.depth, Offset: w.offset,
		Width: g.width(&w.sums), Cum: divide(w.sums.w, w.sums.d), Base: divide(w.sums.bw, w.sums.bd)}
	if w.frame >= 0 {
		fi := &t.frames[w.frame]
		f.File, f.Line, f.Package = fi.file, fi.line, t.pkgs[fi.pkg]
	}
	g.v.Frames = append(g.v.Frames, f)
	return len(g.v.Frames) - 1
}

// split groups w's cursors by their next frame, moves each group wide
// enough to see to the front of w's range, one after the other, and
// returns them as work items, widest first; self sums the cursors whose
// stacks end at w.
func (g *grower) split(cur []cursor, w *work, step int) ([]work, sums) {
	t := g.t
	var self sums
	g.touched = g.touched[:0]
	for _, c := range cur[w.lo:w.hi] {
		if c.n == 0 {
			self.add(t, c.s)
			continue
		}
		f := t.stacks[c.pos]
		if g.slot[f] == -1 {
			g.slot[f] = -2
			g.touched = append(g.touched, f)
		}
		g.acc[f].add(t, c.s)
	}
	var kids []work
	for _, f := range g.touched {
		if s := &g.acc[f]; g.width(s) >= g.cut {
			kids = append(kids, work{frame: f, sums: *s})
		}
	}
	slices.SortFunc(kids, func(a, b work) int {
		if c := cmp.Compare(g.width(&b.sums), g.width(&a.sums)); c != 0 {
			return c
		}
		return strings.Compare(t.frames[a.frame].name, t.frames[b.frame].name)
	})
	pos := w.lo
	for i := range kids {
		g.slot[kids[i].frame] = int32(i)
		kids[i].lo, kids[i].hi = pos, pos
		pos += int(kids[i].sums.cnt)
	}
	if len(kids) > 0 {
		g.scratch = slices.Grow(g.scratch[:0], pos-w.lo)[:pos-w.lo]
		for _, c := range cur[w.lo:w.hi] {
			if c.n == 0 {
				continue
			}
			if k := g.slot[t.stacks[c.pos]]; k >= 0 {
				kw := &kids[k]
				g.scratch[kw.hi-w.lo] = cursor{s: c.s, n: c.n - 1, pos: c.pos + step}
				kw.hi++
			}
		}
		copy(cur[w.lo:pos], g.scratch)
	}
	for _, f := range g.touched {
		g.acc[f] = sums{}
		g.slot[f] = -1
	}
	return kids, self
}
