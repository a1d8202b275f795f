package goroutines

import (
	"cmp"
	"slices"
	"strconv"
)

// A Group is the goroutines of a dump that have the same frames (function,
// file and line; argument values, pointers and ids aside), state and
// creator.
type Group struct {
	// Count is the number of goroutines in the group.
	Count int
	// BaseCount is their number in the base dump (see Compare); 0 without.
	BaseCount int
	// State is the goroutines' state, as printed ("chan receive").
	State string
	// WaitMin and WaitMax are the shortest and longest wait, in minutes.
	WaitMin, WaitMax int
	// Locked counts goroutines locked to their thread, Leaked those the
	// runtime reported as leaked (see Goroutine.Leaked).
	Locked, Leaked int
	// Labels are the labels every goroutine of the group carries.
	Labels []Label
	// CreatedBy is the go statement that started them; nil for none.
	CreatedBy *Frame
	// Frames are the shared calls, innermost first.
	Frames []Frame
	// Elided counts frames the runtime left out of the first goroutine,
	// before Frames[ElidedAt] (see Goroutine.ElidedAt).
	Elided, ElidedAt int
	// Truncated counts goroutines whose stack was cut short.
	Truncated int
	// IDs holds the ids of the first goroutines (at most MaxIDs).
	IDs []int64
	// Panic is the panic or fatal error message when the group holds the
	// goroutine it was printed with; that group comes first.
	Panic string
	// Example is the first goroutine of the group, with its argument
	// words.
	Example *Goroutine
	// Folded is, for the group "other" that the group budget makes of
	// the groups with the fewest goroutines (see Dump.MaxBytes), how many
	// groups it holds; 0 for every other group. It has no frames.
	Folded int

	key      string // what Add groups by (see groupKey)
	baseSeen bool   // Compare set BaseCount
	moved    int    // goroutines of the base dump, by id, that were in another group there
}

// MaxIDs bounds Group.IDs.
const MaxIDs = 8

// Stdlib reports whether frame i is in the standard library.
func (g *Group) Stdlib(i int) bool { return g.Frames[i].Stdlib() }

// UserFrame returns the index of the first frame outside the standard
// library, or -1: for the panicking group, where the panic came from.
func (g *Group) UserFrame() int { return g.Example.UserFrame() }

// Top returns the function a reader names the group by: the first frame
// in user code, else the innermost one; "(other groups)" for the group
// the budget folds small groups into.
func (g *Group) Top() Frame {
	if g.Folded > 0 {
		return Frame{Func: "(other groups)"}
	}
	if i := g.UserFrame(); i >= 0 {
		return g.Frames[i]
	}
	if len(g.Frames) > 0 {
		return g.Frames[0]
	}
	return Frame{Func: "(no frames)"}
}

// A Dump is the goroutines of one or more sources, grouped.
type Dump struct {
	// Total is the number of goroutines read.
	Total int
	// Panic is the panic or fatal error message, if the dump has one, and
	// PanicGoroutine the goroutine it was printed with.
	Panic          string
	PanicGoroutine int64
	// Groups are sorted: the panicking group first, then by count.
	Groups []*Group
	// Races are the data race reports read, grouped by the locations of
	// their two accesses, most reports first.
	Races []*RaceGroup
	// Snapshots are the dumps that followed the first in the same input
	// (a program that panicked twice, a log with two SIGQUIT dumps; see
	// Scanner.Snapshot), each grouped on its own, in the input's order.
	// The Dump itself holds the first.
	Snapshots []*Dump
	// Notes say what was cut or skipped, one sentence each.
	Notes []string
	// MaxBytes is the group budget: a bound on the memory the groups
	// hold, 0 for DefaultMaxBytes. Past it, the groups with the fewest
	// goroutines are folded into one group, "other" (Group.Folded), and a
	// note says so; set it before the first Add.
	MaxBytes int64

	index     map[string]*Group
	raceIndex map[string]*RaceGroup
	key       []byte
	compared  bool  // Compare was called
	bytes     int64 // what the groups hold, as groupBytes estimates
	foldedMax int   // the largest group folded into "other"
	foldNote  int   // the index of the note about folding in Notes, -1 before
}

// NewDump returns an empty Dump to Add goroutines to.
func NewDump() *Dump { return &Dump{index: make(map[string]*Group), foldNote: -1} }

// Add counts g into its group. g is not kept: Add copies what the group
// needs, so that a Scanner's goroutine may be passed.
func (d *Dump) Add(g *Goroutine) {
	n := max(g.Count, 0)
	d.Total += n
	k := d.groupKey(g)
	grp, ok := d.index[string(k)]
	if !ok {
		grp = newGroup(g)
		grp.key = string(k)
		d.index[grp.key] = grp
		d.Groups = append(d.Groups, grp)
		defer d.spend(grp) // once it counts g
	} else {
		grp.Labels = commonLabels(grp.Labels, g.Labels)
		grp.WaitMin = min(grp.WaitMin, g.WaitMinutes)
		grp.WaitMax = max(grp.WaitMax, g.WaitMinutes)
		if len(grp.IDs) < MaxIDs && g.ID != 0 {
			grp.IDs = append(grp.IDs, g.ID)
		}
	}
	grp.Count += n
	if g.Locked {
		grp.Locked += n
	}
	if g.Leaked {
		grp.Leaked += n
	}
	if g.Truncated {
		grp.Truncated += n
	}
	if g.Panic != "" && d.Panic == "" {
		d.Panic, d.PanicGoroutine = g.Panic, g.ID
		grp.Panic = g.Panic
		grp.Example = g.Clone()
	}
}

func newGroup(g *Goroutine) *Group {
	c := g.Clone()
	grp := &Group{State: g.State, WaitMin: g.WaitMinutes, WaitMax: g.WaitMinutes,
		Labels: c.Labels, CreatedBy: c.CreatedBy, Frames: c.Frames, Elided: g.Elided, ElidedAt: g.ElidedAt, Example: c}
	if g.ID != 0 {
		grp.IDs = []int64{g.ID}
	}
	return grp
}

// groupKey encodes what makes goroutines one group: state, leaked or not,
// creator and frames, each function with its file and line.
func (d *Dump) groupKey(g *Goroutine) []byte {
	k := append(d.key[:0], g.State...)
	if g.Leaked {
		k = append(k, "\x00leaked"...)
	}
	if g.CreatedBy != nil {
		k = appendFrameKey(k, g.CreatedBy)
	}
	k = append(k, 1)
	for i := range g.Frames {
		k = appendFrameKey(k, &g.Frames[i])
	}
	d.key = k
	return k
}

func appendFrameKey(k []byte, f *Frame) []byte {
	k = append(k, 0)
	k = append(k, f.Func...)
	k = append(k, 0)
	k = append(k, f.File...)
	return strconv.AppendInt(append(k, ':'), int64(f.Line), 10)
}

// commonLabels keeps the labels of have that want has too.
func commonLabels(have, want []Label) []Label {
	out := have[:0]
	for _, l := range have {
		if slices.Contains(want, l) {
			out = append(out, l)
		}
	}
	return out
}

// Sort orders the groups: the panicking one first, then by count, then by
// the name of their top frame, "other" (see Dump.MaxBytes) last; and the
// race groups by count. The snapshots are sorted too.
func (d *Dump) Sort() {
	d.sortRaces()
	for _, sn := range d.Snapshots {
		sn.Sort()
	}
	slices.SortStableFunc(d.Groups, func(a, b *Group) int {
		if (a.Panic != "") != (b.Panic != "") {
			if a.Panic != "" {
				return -1
			}
			return 1
		}
		if (a.Folded > 0) != (b.Folded > 0) {
			if a.Folded > 0 {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Top().Func, b.Top().Func)
	})
}

// Truncated returns the number of goroutines whose stack was cut short.
func (d *Dump) Truncated() int {
	n := 0
	for _, g := range d.Groups {
		n += g.Truncated
	}
	return n
}
