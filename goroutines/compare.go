package goroutines

import (
	"fmt"
	"strings"
)

// Compare sets each group's BaseCount from the same group of base, the
// dump taken earlier. Groups of base that have gone are not added.
func (d *Dump) Compare(base *Dump) {
	for _, g := range d.Groups {
		g.baseSeen = true
		if b, ok := base.index[g.key]; ok {
			g.BaseCount = b.Count
		}
	}
	d.compared = true
}

// A Finding is a group that looks leaked.
type Finding struct {
	Group *Group
	// Grew is how many goroutines the group gained since the base dump.
	Grew int
	// Certain reports goroutines the runtime's leak detector reported.
	Certain bool
	// Text is one line for a person: "+200 goroutines in
	// main.leakyWorker, blocked on chan receive ≥ 5 minutes, created by
	// main.main at main.go:48: likely leak".
	Text string
}

// Leaks returns the groups that look leaked, most goroutines first: those
// the runtime reported as leaked (certain); with a base (see Compare),
// those that grew, a likely leak when they have also waited at least
// longWait minutes; without one, those that have waited that long.
func (d *Dump) Leaks(longWait int) []Finding {
	var fs []Finding
	for _, g := range d.Groups {
		f := Finding{Group: g, Grew: g.Count - g.BaseCount}
		long := g.WaitMax >= longWait && g.WaitMax > 0
		switch {
		case g.Folded > 0 && g.Leaked == 0: // "other": its growth names no group
			continue
		case g.Leaked > 0:
			f.Certain = true
			f.Text = fmt.Sprintf("%s in %s%s: leaked (reported by the runtime's leak detector)", plural(g.Leaked, "goroutine"), g.Top().Func, describeWait(g, longWait))
		case d.compared && f.Grew > 0 && long:
			f.Text = fmt.Sprintf("+%s in %s%s: likely leak", plural(f.Grew, "goroutine"), g.Top().Func, describeWait(g, longWait))
		case d.compared && f.Grew > 0:
			f.Text = fmt.Sprintf("+%s in %s%s: grew", plural(f.Grew, "goroutine"), g.Top().Func, describeWait(g, longWait))
		case !d.compared && long && g.Panic == "":
			f.Text = fmt.Sprintf("%s in %s%s: waiting long, possible leak", plural(g.Count, "goroutine"), g.Top().Func, describeWait(g, longWait))
		default:
			continue
		}
		fs = append(fs, f)
	}
	return fs
}

// describeWait says what the group waits on, for how long, and who made it:
// ", blocked on chan receive ≥ 5 minutes, created by main.main at main.go:48".
func describeWait(g *Group, longWait int) string {
	var b strings.Builder
	if g.State != "" {
		fmt.Fprintf(&b, ", blocked on %s", g.State)
		if g.State == "running" || g.State == "runnable" {
			b.Reset()
			fmt.Fprintf(&b, ", %s", g.State)
		}
	}
	switch {
	case g.WaitMin > 0 && g.WaitMin >= longWait:
		fmt.Fprintf(&b, " ≥ %d minutes", g.WaitMin)
	case g.WaitMax > 0:
		fmt.Fprintf(&b, " up to %d minutes", g.WaitMax)
	}
	if c := g.CreatedBy; c != nil {
		fmt.Fprintf(&b, ", created by %s at %s", c.Func, shortLoc(*c))
	}
	return b.String()
}

// shortLoc is "main.go:48": the file's base name and line.
func shortLoc(f Frame) string {
	file := f.File
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	if f.Line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, f.Line)
}

// MarkLeaked marks as leaked the goroutines of d whose frames match those
// of leaks, a dump of the runtime's goroutineleak profile; groups of leaks
// that match none are added, so that a leak profile read alone shows.
func (d *Dump) MarkLeaked(leaks *Dump) {
	if leaks == nil || leaks.Total == 0 {
		return
	}
	byFrames := make(map[string][]*Group)
	for _, g := range d.Groups {
		k := framesKey(g.Frames)
		byFrames[k] = append(byFrames[k], g)
	}
	for _, lg := range leaks.Groups {
		left := lg.Leaked
		for _, g := range byFrames[framesKey(lg.Frames)] {
			n := min(left, g.Count-g.Leaked)
			g.Leaked += n
			left -= n
		}
		if left > 0 && len(byFrames[framesKey(lg.Frames)]) == 0 {
			d.Add(&Goroutine{Count: left, State: lg.State, Leaked: true, Labels: lg.Labels,
				Frames: lg.Frames, CreatedBy: lg.CreatedBy})
		}
	}
}

// framesKey identifies a stack by its functions and lines alone.
func framesKey(fs []Frame) string {
	var k []byte
	for i := range fs {
		k = appendFrameKey(k, &fs[i])
	}
	return string(k)
}
