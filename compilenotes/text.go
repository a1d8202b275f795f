package compilenotes

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/internal/units"
)

// TextOptions configure WriteText.
type TextOptions struct {
	Fraction float64 // hide sites below this fraction of the total (0.005 as pprof's -nodefraction)
	Max      int     // at most this many sites; 0 means no limit
	Flow     bool    // show the compiler's flow under each reason
	Dir      string  // show files relative to this directory when they are under it
}

// A group is the sites of one category.
type group struct {
	cat   Category
	value int64
	sites []*Site
}

// Groups returns the sites by category, heaviest category first.
func (a *Analysis) groups(sites []*Site) []*group {
	byName := map[string]*group{}
	var out []*group
	for _, st := range sites {
		g := byName[st.Category]
		if g == nil {
			c, _ := LookupCategory(st.Category)
			g = &group{cat: c}
			byName[st.Category] = g
			out = append(out, g)
		}
		g.value += st.Value
		g.sites = append(g.sites, st)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].value > out[j].value })
	return out
}

// WriteText writes the analysis as text: a header, then each category
// with its share, its hint and its sites, heaviest first, each site with
// its value, bytes, objects, function, file:line, the compiler's reasons
// and its own hint where it is not the category's (a callee's names it).
func (a *Analysis) WriteText(w io.Writer, o TextOptions) error {
	unit := unitOf(a.SampleType)
	fmt.Fprintf(w, "Type: %s\nTotal: %s\n", a.SampleType, formatValue(a.Total, unit))
	if a.BuildError != "" {
		fmt.Fprintf(w, "Compiler notes: none (%s)\n", term.OneLine(a.BuildError))
	} else {
		fmt.Fprintf(w, "Compiler notes: %d\n", a.Notes.Len())
	}
	shown := a.Sites
	cut := int64(o.Fraction * float64(a.Total))
	for i, st := range shown {
		if st.Value < cut || st.Value <= 0 || (o.Max > 0 && i >= o.Max) {
			shown = shown[:i]
			break
		}
	}
	if n := len(a.Sites) - len(shown); n > 0 {
		fmt.Fprintf(w, "Showing %d of %d sites (dropped those below %s)\n", len(shown), len(a.Sites), formatValue(cut, unit))
	}
	for _, g := range a.groups(shown) {
		fmt.Fprintf(w, "\n%s: %s (%s)\n", g.cat.Title, formatValue(g.value, unit), percent(g.value, a.Total))
		fmt.Fprintf(w, "  hint: %s\n", g.cat.Hint)
		for _, st := range g.sites {
			a.writeSite(w, st, o)
		}
	}
	return nil
}

// writeSite writes one site and its reasons.
func (a *Analysis) writeSite(w io.Writer, st *Site, o TextOptions) {
	file := st.File
	if rel, err := filepath.Rel(o.Dir, file); o.Dir != "" && err == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	}
	via := ""
	if st.Via != "" {
		via = " via " + st.Via
	}
	fmt.Fprintf(w, "  %6s %10s %10s objects  %s %s:%d%s\n", percent(st.Value, a.Total),
		formatValue(st.Bytes, "bytes"), formatCount(st.Objects), shortFunc(st.Func), file, st.Line, via)
	for i, r := range st.Reasons {
		fmt.Fprintf(w, "        %s\n", r)
		if o.Flow && i < len(st.Flows) {
			for _, f := range st.Flows[i] {
				fmt.Fprintf(w, "            %s\n", f)
			}
		}
	}
	if c, _ := LookupCategory(st.Category); st.Hint != "" && st.Hint != c.Hint {
		fmt.Fprintf(w, "        hint: %s\n", st.Hint)
	}
}

// unitOf returns the unit of a heap sample type.
func unitOf(sampleType string) string {
	if strings.HasSuffix(sampleType, "_space") {
		return "bytes"
	}
	return "count"
}

// formatValue prints bytes as pprof does (see units.Label) and counts as they are.
func formatValue(v int64, unit string) string {
	if unit != "bytes" {
		return formatCount(v)
	}
	return units.Label(v, "bytes", "auto")
}

func formatCount(v int64) string { return fmt.Sprintf("%d", v) }

func percent(v, total int64) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(v)/float64(total))
}
