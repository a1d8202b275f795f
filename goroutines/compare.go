package goroutines

import (
	"fmt"
	"strings"
)

// Compare sets each group's BaseCount from the same group of base, the
// dump taken earlier (its last snapshot, if its input held several).
// Groups of base that have gone are not added. Every snapshot of d is
// compared with it.
func (d *Dump) Compare(base *Dump) {
	if n := len(base.Snapshots); n > 0 {
		base = base.Snapshots[n-1]
	}
	for _, sn := range d.Snapshots {
		sn.compare(base)
	}
	d.compare(base)
}

func (d *Dump) compare(base *Dump) {
	baseIDs := make(map[int64]string) // the base's goroutines whose ids are known, and their group
	for _, b := range base.Groups {
		for _, id := range b.IDs {
			baseIDs[id] = b.key
		}
	}
	for _, g := range d.Groups {
		g.baseSeen = true
		if b, ok := base.index[g.key]; ok {
			g.BaseCount = b.Count
		}
		g.moved = 0
		if g.Count > len(g.IDs) {
			continue // not every id is known
		}
		for _, id := range g.IDs {
			if k, ok := baseIDs[id]; ok && k != g.key {
				g.moved++ // the same goroutine, in another state or place
			}
		}
	}
	d.compared = true
}

// A Finding is a group that looks leaked.
type Finding struct {
	Group *Group
	// Grew is how many goroutines the group gained since the base dump,
	// not counting goroutines of the base that moved into it.
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
// longWait minutes; without one, those that have waited that long. A
// goroutine of the base dump that is now in another group (the same id in
// another state or place) is not growth. A
// group of one connection's goroutines (see Group.Connection) that grew
// without waiting long is not reported: they come and go with the
// connections open when the dump was taken, the dump's own request among
// them.
func (d *Dump) Leaks(longWait int) []Finding {
	var fs []Finding
	for _, g := range d.Groups {
		f := Finding{Group: g, Grew: g.Count - g.BaseCount - g.moved}
		long := g.WaitMax >= longWait && g.WaitMax > 0
		switch {
		case g.Folded > 0 && g.Leaked == 0: // "other": its growth names no group
			continue
		case g.Leaked == 0 && !long && g.Connection():
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

// connectionCreators are the functions that start the goroutines of one
// network connection in net/http: a server's per-connection goroutine, the
// read it starts while a handler runs, a client connection's dial and its
// read and write loops, and HTTP/2's.
var connectionCreators = []string{
	"net/http.(*Server).Serve",
	"net/http.(*connReader).startBackgroundRead",
	"net/http.(*Transport).dialConn",
	"net/http.(*Transport).dialConnFor",
	"net/http.(*Transport).queueForDial",
	"net/http.(*http2Server).ServeConn",
	"net/http.(*http2serverConn).serve",
	"net/http.(*http2Transport).newClientConn",
	"net/http.(*http2ClientConn).goRun",
	"golang.org/x/net/http2.(*Server).ServeConn",
	"golang.org/x/net/http2.(*serverConn).serve",
	"golang.org/x/net/http2.(*Transport).newClientConn",
	"golang.org/x/net/http2.(*ClientConn).goRun",
}

// Connection reports whether the group's goroutines each belong to one
// network connection of net/http (or x/net/http2), by the function that
// created them: they live as long as their connection, and a dump taken
// over HTTP holds its own.
func (g *Group) Connection() bool {
	if g.CreatedBy == nil {
		return false
	}
	fn := strings.TrimSuffix(g.CreatedBy.Func, ".gowrap1")
	for _, c := range connectionCreators {
		if fn == c || strings.HasPrefix(fn, c+".") {
			return true
		}
	}
	return false
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
