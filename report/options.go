package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Kind names a report.
type Kind string

// The reports Generate writes, named as pprof's commands.
const (
	Top    Kind = "top"
	Peek   Kind = "peek"
	Tree   Kind = "tree"
	Traces Kind = "traces"
	Tags   Kind = "tags"
	Raw    Kind = "raw"
	List   Kind = "list"
	Dot    Kind = "dot" // the call graph in Graphviz's DOT language, as pprof -dot
)

// Options are pprof's report settings, with its flag names in comments.
// Start from DefaultOptions: the zero value is not pprof's default.
type Options struct {
	SampleIndex string // -sample_index: a sample type name or index; "" means the last
	Mean        bool   // -mean: divide values by the first sample value (as -mean_delay)

	Cum          bool    // -cum: sort by cumulative value
	NodeCount    int     // -nodecount; -1 means the report's default (top: all, tree: 80)
	NodeFraction float64 // -nodefraction
	EdgeFraction float64 // -edgefraction

	Focus, Ignore, Hide, Show, ShowFrom string // sample and frame filters (regexps)
	TagFocus, TagIgnore                 string // label filters: regexps or numeric ranges
	TagShow, TagHide                    string // -tagshow, -taghide: keep or drop labels whose key matches (regexps)

	// TagRoot and TagLeaf (-tagroot, -tagleaf) are comma-separated label
	// keys: each adds a pseudo frame per sample named by its values of
	// the key, above the root or below the leaf (pprof's group by label).
	TagRoot, TagLeaf string

	// Granularity is functions, filefunctions, files, lines or addresses;
	// "" means the report's default (lines for list, functions otherwise).
	Granularity string
	NoInlines   bool // -noinlines: attribute inlined frames to their caller

	Unit                string  // -unit: output unit, or "minimum" / "auto"
	DivideBy            float64 // -divide_by
	RelativePercentages bool    // -relative_percentages
	CompactLabels       bool    // -compact_labels
	NoTrim              bool    // trim=false: ignore nodecount and the fractions

	SourcePath string // -source_path: where list looks for source files
	TrimPath   string // -trim_path: path prefixes removed before the search

	// Symbol is the regexp of peek and list (and an optional filter of tree).
	Symbol string

	// Warnings, if not nil, receives pprof's warnings such as
	// "Focus expression matched no samples".
	Warnings io.Writer

	// LineNotes, if not nil, gives lines list prints under each source
	// line: perflab list -compiler's notes.
	LineNotes LineNoter
}

// A LineNoter gives the notes of a source line, file as the profile names
// it (package compilenotes' Notes is one).
type LineNoter interface {
	Lines(file string, line int) []string
}

// DefaultOptions returns pprof's defaults.
func DefaultOptions() Options {
	return Options{
		NodeCount:    -1,
		NodeFraction: 0.005,
		EdgeFraction: 0.001,
		Unit:         "minimum",
		DivideBy:     1,
	}
}

// A Granularity is a level a report aggregates its frames at: pprof's
// -functions, -filefunctions, -files, -lines and -addresses.
type Granularity struct {
	Name string // the flag's name and Options.Granularity's value
	Help string
}

// granularities is the one list of them, in pprof's order.
var granularities = []Granularity{
	{"functions", "aggregate at the function level"},
	{"filefunctions", "aggregate at the function level, per file"},
	{"files", "aggregate at the file level"},
	{"lines", "aggregate at the source line level"},
	{"addresses", "aggregate at the instruction address level"},
}

// Granularities returns the levels a report can aggregate at, in pprof's
// order (a copy).
func Granularities() []Granularity { return slices.Clone(granularities) }

// effective returns the options a report of kind k actually uses: pprof
// turns trimming off for peek and list, and picks the default node count
// and granularity per report.
func (o Options) effective(k Kind) (Options, error) {
	if o.DivideBy == 0 {
		return o, errors.New("zero divisor specified")
	}
	if o.Granularity != "" && !slices.ContainsFunc(granularities, func(g Granularity) bool { return g.Name == o.Granularity }) {
		var names []string
		for _, g := range granularities {
			names = append(names, g.Name)
		}
		return o, fmt.Errorf("unknown granularity %q (want one of %s)", o.Granularity, strings.Join(names, ", "))
	}
	trim := !o.NoTrim
	switch k {
	case Peek:
		trim = false
	case List:
		trim = false
		o.Granularity = "lines"
	case Raw:
		trim = false
		o.Granularity = "addresses"
	case Top:
		if o.NodeCount == -1 {
			o.NodeCount = 0
		}
	default:
		if o.NodeCount == -1 {
			o.NodeCount = 80
		}
	}
	if !trim {
		o.NodeCount, o.NodeFraction, o.EdgeFraction = 0, 0, 0
	}
	if o.Granularity == "" {
		o.Granularity = "functions"
	}
	return o, nil
}

// ActiveFilters lists the filters in effect as pprof's legend shows them:
// "focus=main", "tagignore=worker=w0".
func (o *Options) ActiveFilters() []string {
	var out []string
	add := func(k, v string) {
		if v != "" {
			out = append(out, k+"="+v)
		}
	}
	add("focus", o.Focus)
	add("ignore", o.Ignore)
	add("hide", o.Hide)
	add("show", o.Show)
	add("show_from", o.ShowFrom)
	add("tagfocus", o.TagFocus)
	add("tagignore", o.TagIgnore)
	add("tagshow", o.TagShow)
	add("taghide", o.TagHide)
	return out
}
