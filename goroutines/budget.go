package goroutines

import (
	"cmp"
	"fmt"
	"slices"
)

// DefaultMaxBytes is the group budget of a Dump unless Dump.MaxBytes says
// otherwise.
const DefaultMaxBytes = 64 << 20

// otherKey is the key of the group the budget folds small groups into.
const otherKey = "\x00other"

// groupBytes estimates what a group holds in memory: its key, its frames
// (shared with its example goroutine), labels and ids, and the index entry.
func groupBytes(g *Group) int64 {
	n := int64(400 + 2*len(g.key) + 8*MaxIDs)
	for _, f := range g.Frames {
		n += int64(56 + len(f.Func) + len(f.File) + len(f.Args))
	}
	if c := g.CreatedBy; c != nil {
		n += int64(56 + len(c.Func) + len(c.File))
	}
	for _, l := range g.Labels {
		n += int64(32 + len(l.Key) + len(l.Value))
	}
	return n
}

// spend counts a new group against the budget and, past it, folds the
// smallest groups into one group, "other", until half the budget is left:
// memory follows the budget, not the number of distinct stacks in the
// input.
func (d *Dump) spend(g *Group) {
	d.bytes += groupBytes(g)
	if d.bytes > d.budget() {
		d.fold(d.budget() / 2)
	}
}

// budget returns the group budget in bytes.
func (d *Dump) budget() int64 {
	if d.MaxBytes > 0 {
		return d.MaxBytes
	}
	return DefaultMaxBytes
}

// fold moves the groups with the fewest goroutines into the "other" group
// until the others hold at most target bytes. The panicking group is
// never folded, groups with goroutines the runtime reported as leaked only
// after all the rest.
func (d *Dump) fold(target int64) {
	cands := make([]*Group, 0, len(d.Groups))
	for _, g := range d.Groups {
		if g.Panic == "" && g.key != otherKey {
			cands = append(cands, g)
		}
	}
	slices.SortFunc(cands, func(a, b *Group) int {
		if c := cmp.Compare(min(a.Leaked, 1), min(b.Leaked, 1)); c != 0 {
			return c
		}
		return cmp.Compare(a.Count, b.Count)
	})
	other := d.otherGroup()
	for _, g := range cands {
		if d.bytes <= target {
			break
		}
		other.absorb(g)
		d.foldedMax = max(d.foldedMax, g.Count)
		d.bytes -= groupBytes(g)
		delete(d.index, g.key)
		g.key = "" // marks it folded
	}
	d.Groups = slices.DeleteFunc(d.Groups, func(g *Group) bool { return g.key == "" })
	d.noteFold()
}

// otherGroup returns the "other" group, made on first use.
func (d *Dump) otherGroup() *Group {
	if g := d.index[otherKey]; g != nil {
		return g
	}
	g := &Group{key: otherKey, Example: &Goroutine{}, WaitMin: -1}
	d.index[otherKey] = g
	d.Groups = append(d.Groups, g)
	return g
}

// absorb adds the goroutines of g to the "other" group o.
func (o *Group) absorb(g *Group) {
	o.Count += g.Count
	o.Locked += g.Locked
	o.Leaked += g.Leaked
	o.Truncated += g.Truncated
	o.Folded += max(g.Folded, 1)
	if o.WaitMin < 0 || g.WaitMin < o.WaitMin {
		o.WaitMin = g.WaitMin
	}
	o.WaitMax = max(o.WaitMax, g.WaitMax)
}

// noteFold says, in the dump's notes, what the budget folded.
func (d *Dump) noteFold() {
	o := d.index[otherKey]
	note := fmt.Sprintf("%s in %s with fewer goroutines than the rest are shown as one group, \"other\": "+
		"the dump has more distinct stacks than its group budget (%s) holds; a group shown may lack up to %s folded before it grew",
		plural(o.Count, "goroutine"), plural(o.Folded, "group"), budgetText(d.budget()), plural(d.foldedMax, "goroutine"))
	if d.foldNote >= 0 && d.foldNote < len(d.Notes) {
		d.Notes[d.foldNote] = note
		return
	}
	d.foldNote = len(d.Notes)
	d.Notes = append(d.Notes, note)
}

// budgetText is a budget in MiB, or bytes below one.
func budgetText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
