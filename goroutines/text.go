package goroutines

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TextOptions tune WriteText.
type TextOptions struct {
	// Color dims standard-library frames with ANSI escapes (for a
	// terminal); without it they are indented one step further.
	Color bool
	// Args prints each frame's raw argument words, and decodes those of
	// the panicking frame with Params.
	Args bool
	// Params, if not nil, returns the parameters of a frame's function
	// (see ParamsFromBinary and ParamsFromSource).
	Params func(Frame) ([]Param, error)
	// LongWait is the wait, in minutes, from which a group is reported as
	// waiting long (see Dump.Leaks); 0 means 1.
	LongWait int
}

// WriteText writes the dump compactly: the panic, then one block per group
// with its count first, then the leak findings, the data races, and the
// notes. An input that held several dumps is written one after the other,
// each under a "Dump N of M" line.
func (d *Dump) WriteText(w io.Writer, o TextOptions) error {
	bw := bufio.NewWriter(w)
	if o.LongWait <= 0 {
		o.LongWait = 1
	}
	for i, sn := range append([]*Dump{d}, d.Snapshots...) {
		if len(d.Snapshots) > 0 {
			if i > 0 {
				bw.WriteString("\n")
			}
			fmt.Fprintf(bw, "== Dump %d of %d\n", i+1, len(d.Snapshots)+1)
		}
		sn.writeSnapshot(bw, o)
	}
	if len(d.Notes) > 0 {
		bw.WriteString("\nNotes:\n")
		for _, n := range d.Notes {
			fmt.Fprintf(bw, "  %s\n", n)
		}
	}
	return bw.Flush()
}

// writeSnapshot writes one dump of the input without the notes.
func (d *Dump) writeSnapshot(bw *bufio.Writer, o TextOptions) {
	if d.Panic != "" {
		fmt.Fprintf(bw, "%s\n", d.Panic)
	}
	if d.Total > 0 || len(d.Races) == 0 {
		fmt.Fprintf(bw, "%s in %s\n", plural(d.Total, "goroutine"), plural(len(d.Groups), "group"))
	}
	for _, g := range d.Groups {
		bw.WriteString("\n")
		writeGroup(bw, g, o)
	}
	if leaks := d.Leaks(o.LongWait); len(leaks) > 0 {
		bw.WriteString("\nLeaks:\n")
		for _, f := range leaks {
			fmt.Fprintf(bw, "  %s\n", f.Text)
		}
	}
	if len(d.Races) > 0 {
		if d.Total > 0 {
			bw.WriteString("\n")
		}
		d.writeRaces(bw)
	}
}

// Heading is a group's first line without its count: "[chan receive,
// 5-12 minutes, 3 locked to thread] {pattern: "GET /"}".
func (g *Group) Heading() string {
	var parts []string
	if g.Folded > 0 {
		parts = append(parts, fmt.Sprintf("other: %s folded by the group budget", plural(g.Folded, "group")))
	}
	if g.State != "" {
		parts = append(parts, g.State)
	}
	switch {
	case g.WaitMax == 0:
	case g.WaitMin == g.WaitMax:
		parts = append(parts, fmt.Sprintf("%d minutes", g.WaitMax))
	default:
		parts = append(parts, fmt.Sprintf("%d-%d minutes", g.WaitMin, g.WaitMax))
	}
	if g.Locked > 0 {
		parts = append(parts, fmt.Sprintf("%d locked to thread", g.Locked))
	}
	if g.Leaked > 0 {
		parts = append(parts, fmt.Sprintf("%d leaked", g.Leaked))
	}
	var b strings.Builder
	if len(parts) > 0 {
		b.WriteString("[" + strings.Join(parts, ", ") + "]")
	}
	if len(g.Labels) > 0 {
		b.WriteString(" " + FormatLabels(g.Labels))
	}
	return strings.TrimSpace(b.String())
}

// FormatLabels writes labels as Go 1.27's headers do: {key: "value", ...}.
func FormatLabels(ls []Label) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.Key + ": " + strconv.Quote(l.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func writeGroup(w *bufio.Writer, g *Group, o TextOptions) {
	fmt.Fprintf(w, "%s %s", plural(g.Count, "goroutine"), g.Heading())
	if g.baseSeen {
		fmt.Fprintf(w, " (%+d since base: %d)", g.Count-g.BaseCount, g.BaseCount)
	}
	if len(g.IDs) > 0 {
		fmt.Fprintf(w, " ids %s", formatIDs(g))
	}
	w.WriteString("\n")
	if g.Panic != "" {
		fmt.Fprintf(w, "  panicked here (> marks the first frame in user code)\n")
	}
	user := -1
	if g.Panic != "" {
		user = g.UserFrame()
	}
	for i, f := range g.Frames {
		if g.Elided > 0 && i == g.ElidedAt {
			fmt.Fprintf(w, "    ...%d frames elided...\n", g.Elided)
		}
		writeFrame(w, f, i == user, o)
		if i == user && o.Args {
			writeArgs(w, g.Example.Frames[i], o)
		}
	}
	if g.Elided > 0 && g.ElidedAt >= len(g.Frames) {
		fmt.Fprintf(w, "    ...%d frames elided...\n", g.Elided)
	}
	if g.Truncated > 0 {
		fmt.Fprintf(w, "    (stack cut short in %d of these goroutines)\n", g.Truncated)
	}
	if c := g.CreatedBy; c != nil {
		fmt.Fprintf(w, "  created by %s at %s\n", c.Func, location(*c))
	}
}

func formatIDs(g *Group) string {
	s := make([]string, len(g.IDs))
	for i, id := range g.IDs {
		s[i] = strconv.FormatInt(id, 10)
	}
	if g.Count > len(g.IDs) {
		s = append(s, "...")
	}
	return strings.Join(s, " ")
}

func location(f Frame) string {
	if f.Line == 0 {
		return f.File
	}
	return f.File + ":" + strconv.Itoa(f.Line)
}

// writeFrame writes "  > main.f  /src/main.go:12": ">" marks the first
// frame in user code of the panicking goroutine.
func writeFrame(w *bufio.Writer, f Frame, marked bool, o TextOptions) {
	lead := "    "
	if marked {
		lead = "  > "
	}
	call := f.Func
	if o.Args {
		call += "(" + f.Args + ")"
	}
	std := f.Stdlib()
	switch {
	case std && o.Color:
		fmt.Fprintf(w, "%s\x1b[2m%s  %s\x1b[0m\n", lead, call, location(f))
	case std:
		fmt.Fprintf(w, "%s  %s  %s\n", lead, call, location(f))
	default:
		fmt.Fprintf(w, "%s%s  %s\n", lead, call, location(f))
	}
}

// writeArgs decodes the arguments of the panicking frame.
func writeArgs(w *bufio.Writer, f Frame, o TextOptions) {
	if o.Params == nil || f.Args == "" || f.Args == "..." {
		return
	}
	ps, err := o.Params(f)
	if err != nil {
		fmt.Fprintf(w, "        (arguments not decoded: %v)\n", err)
		return
	}
	for _, a := range DecodeArgs(f.Args, ps) {
		fmt.Fprintf(w, "        %s %s = %s\n", a.Name, a.Type, a.Text)
	}
	if strings.Contains(f.Args, "?") {
		fmt.Fprintf(w, "        (? marks words that may be stale: an optimized build reuses their registers; -gcflags=all='-N -l' keeps them)\n")
	}
}

// plural is "1 goroutine", "2 goroutines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
