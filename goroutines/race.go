package goroutines

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// raceHeader starts a report of Go's race detector.
const raceHeader = "WARNING: DATA RACE"

// A Race is one report of Go's race detector ("WARNING: DATA RACE"): two
// accesses to the same memory, at least one of them a write, by
// goroutines that no synchronization orders, with where each goroutine
// was created.
type Race struct {
	// Access is the access the detector caught; Previous the earlier one
	// it conflicts with.
	Access, Previous Access
	// Location is what the detector says of the memory, "global 'counter'
	// of size 8 at 0x000000622318 (race+0x622318)" or "heap block of size
	// 32 at 0x00c000124000 allocated by goroutine 7"; "" when it says
	// nothing.
	Location string
}

// An Access is one side of a data race.
type Access struct {
	// Op is "read", "write", "atomic read", ... as printed, without
	// "Previous".
	Op string
	// Addr is the address accessed, as printed.
	Addr string
	// Goroutine is the id of the goroutine that made the access; 1 for
	// "main goroutine", 0 when not printed.
	Goroutine int64
	// State is the goroutine's state when the report was made
	// ("running", "finished"), from its "created at" line.
	State string
	// Frames are the calls of the access, innermost first.
	Frames []Frame
	// CreatedAt are the calls of the go statement that started the
	// goroutine, innermost first; nil for the main goroutine.
	CreatedAt []Frame
}

// Where returns the innermost frame of the access, the location it is
// grouped by; a Frame with Func "(no frames)" when it has none.
func (a *Access) Where() Frame {
	if len(a.Frames) == 0 {
		return Frame{Func: "(no frames)"}
	}
	return a.Frames[0]
}

// readRace reads a race report after its "WARNING: DATA RACE" line, up to
// the "==================" line that closes it, into s.race.
func (s *Scanner) readRace() {
	r := &Race{}
	s.race = r
	var frames *[]Frame // where the stack being read goes
	for s.next() {
		t := bytes.TrimLeft(s.line, " \t")
		indented := len(t) < len(s.line)
		switch {
		case bytes.HasPrefix(s.line, []byte("==================")):
			return
		case string(t) == raceHeader || isHeader(t) && !indented:
			s.unread() // the report was cut; the next one, or a dump, starts
			return
		case len(t) == 0:
		case !indented:
			frames = s.raceSection(r, t)
		case frames == nil:
		case isCall(t):
			if len(*frames) < maxFrames {
				*frames = append(*frames, Frame{Func: s.str(t[:bytes.LastIndexByte(t, '(')])})
			}
		default:
			if n := len(*frames); n > 0 && (*frames)[n-1].File == "" {
				if file, line, ok := s.location(t); ok {
					(*frames)[n-1].File, (*frames)[n-1].Line = file, line
				}
			}
		}
	}
}

// raceSection reads a section's first line of a race report and returns
// where the frames under it go, nil for a section perflab does not keep
// (the stack of a heap block's allocation, a mutex's creation).
func (s *Scanner) raceSection(r *Race, t []byte) *[]Frame {
	line := string(t)
	if rest, ok := strings.CutPrefix(line, "Goroutine "); ok {
		// "Goroutine 8 (running) created at:"
		id, after, _ := strings.Cut(rest, " ")
		n, _ := strconv.ParseInt(id, 10, 64)
		state := ""
		if open, close := strings.IndexByte(after, '('), strings.IndexByte(after, ')'); open >= 0 && close > open {
			state = after[open+1 : close]
		}
		for _, a := range []*Access{&r.Access, &r.Previous} {
			if a.Goroutine == n && a.CreatedAt == nil {
				a.State = s.str([]byte(state))
				a.CreatedAt = []Frame{}
				return &a.CreatedAt
			}
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(line, "Location is "); ok {
		r.Location = strings.TrimSuffix(rest, ":")
		return nil
	}
	a := &r.Access
	if rest, ok := strings.CutPrefix(line, "Previous "); ok {
		a, line = &r.Previous, rest
	}
	op, rest, ok := strings.Cut(line, " at ")
	if !ok || !strings.HasSuffix(rest, ":") {
		return nil
	}
	addr, by, _ := strings.Cut(strings.TrimSuffix(rest, ":"), " by ")
	a.Op, a.Addr = strings.ToLower(op), addr
	switch {
	case by == "main goroutine":
		a.Goroutine = 1
	case strings.HasPrefix(by, "goroutine "):
		a.Goroutine, _ = strconv.ParseInt(strings.TrimPrefix(by, "goroutine "), 10, 64)
	}
	a.Frames = []Frame{}
	return &a.Frames
}

// A RaceGroup is the race reports between the same two locations: the
// innermost frames of their accesses, and what those accesses did.
type RaceGroup struct {
	// Count is the number of reports.
	Count int
	// Example is the first report, with its stacks.
	Example *Race
	// Goroutines holds the ids of the goroutines that made the first
	// reports' accesses (at most MaxIDs).
	Goroutines []int64

	key string
}

// AddRace counts r into its group. r is copied.
func (d *Dump) AddRace(r *Race) {
	k := raceKey(r)
	if d.raceIndex == nil {
		d.raceIndex = make(map[string]*RaceGroup)
	}
	g := d.raceIndex[k]
	if g == nil {
		c := *r
		c.Access.Frames = slices.Clone(r.Access.Frames)
		c.Access.CreatedAt = slices.Clone(r.Access.CreatedAt)
		c.Previous.Frames = slices.Clone(r.Previous.Frames)
		c.Previous.CreatedAt = slices.Clone(r.Previous.CreatedAt)
		g = &RaceGroup{Example: &c, key: k}
		d.raceIndex[k] = g
		d.Races = append(d.Races, g)
	}
	g.Count++
	for _, id := range []int64{r.Access.Goroutine, r.Previous.Goroutine} {
		if id != 0 && len(g.Goroutines) < MaxIDs && !slices.Contains(g.Goroutines, id) {
			g.Goroutines = append(g.Goroutines, id)
		}
	}
}

// raceKey is what race reports are grouped by: each access's operation
// and innermost location.
func raceKey(r *Race) string {
	var k []byte
	for _, a := range []*Access{&r.Access, &r.Previous} {
		w := a.Where()
		k = append(append(k, a.Op...), 0)
		k = appendFrameKey(k, &w)
		k = append(k, 1)
	}
	return string(k)
}

// sortRaces orders the race groups by count, then location.
func (d *Dump) sortRaces() {
	slices.SortStableFunc(d.Races, func(a, b *RaceGroup) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.key, b.key))
	})
}

// Title is the group's first line: "2 data races: read at main.go:12
// (main.incr) against an earlier write at main.go:12 (main.incr)".
func (g *RaceGroup) Title() string {
	a, p := &g.Example.Access, &g.Example.Previous
	return fmt.Sprintf("%s: %s against an earlier %s", plural(g.Count, "data race"), accessWhere(a), accessWhere(p))
}

// accessWhere is "read at main.go:12 (main.incr)".
func accessWhere(a *Access) string {
	w := a.Where()
	return fmt.Sprintf("%s at %s (%s)", cmp.Or(a.Op, "access"), shortLoc(w), w.Func)
}

// By says which goroutine made the access: "goroutine 8 (running)",
// "the main goroutine".
func (a *Access) By() string {
	switch {
	case a.Goroutine == 1 && a.CreatedAt == nil:
		return "the main goroutine"
	case a.Goroutine == 0:
		return "a goroutine"
	case a.State != "":
		return fmt.Sprintf("goroutine %d (%s)", a.Goroutine, a.State)
	}
	return fmt.Sprintf("goroutine %d", a.Goroutine)
}

// writeRaces writes the race groups as text.
func (d *Dump) writeRaces(w io.Writer) {
	if len(d.Races) == 0 {
		return
	}
	n := 0
	for _, g := range d.Races {
		n += g.Count
	}
	fmt.Fprintf(w, "%s at %s\n", plural(n, "data race report"), plural(len(d.Races), "location pair"))
	for _, g := range d.Races {
		fmt.Fprintf(w, "\n%s\n", g.Title())
		if loc := g.Example.Location; loc != "" {
			fmt.Fprintf(w, "  location: %s\n", loc)
		}
		for i, a := range []*Access{&g.Example.Access, &g.Example.Previous} {
			what := a.Op
			if i == 1 {
				what = "previous " + what
			}
			fmt.Fprintf(w, "  %s at %s by %s:\n", what, a.Addr, a.By())
			writeRaceFrames(w, a.Frames)
			if len(a.CreatedAt) > 0 {
				fmt.Fprintf(w, "    created at:\n")
				writeRaceFrames(w, a.CreatedAt)
			}
		}
	}
}

func writeRaceFrames(w io.Writer, fs []Frame) {
	for _, f := range fs {
		fmt.Fprintf(w, "      %s  %s\n", f.Func, location(f))
	}
}
