package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// A run is one report being computed: the profile, the effective options
// and the values every printed figure depends on.
type run struct {
	p          *profile.Profile
	o          Options
	kind       Kind
	val        valuer
	sampleType string // as the Type: header shows it
	sampleUnit string
	total      int64             // the 100% of percentages
	numUnits   map[string]string // unit of each numeric label key
}

// Generate writes report k of p to w. It filters p in place, so pass a
// copy (p.Copy()) to keep the original.
func Generate(w io.Writer, p *profile.Profile, k Kind, o Options) error {
	r, err := prepare(p, k, o)
	if err != nil {
		return err
	}
	if k != Peek && k != List {
		return r.write(w)
	}
	// These fail when nothing matches, after the header: buffer them so
	// that, as in pprof, a failure prints nothing.
	var buf bytes.Buffer
	if err := r.write(&buf); err != nil {
		return err
	}
	_, err = buf.WriteTo(w)
	return err
}

// write renders the report into w.
func (r *run) write(w io.Writer) error {
	switch r.kind {
	case Top:
		return r.top(w)
	case Tree, Peek:
		return r.tree(w)
	case Traces:
		return r.traces(w)
	case Tags:
		return r.tags(w)
	case Raw:
		return r.raw(w)
	case List:
		return r.list(w)
	case Dot:
		return r.dot(w)
	}
	return fmt.Errorf("unknown report %q", r.kind)
}

// prepare resolves the options, computes the total and applies the
// filters, in pprof's order: the total is taken before filtering unless
// percentages are relative to the filtered profile.
func prepare(p *profile.Profile, k Kind, o Options) (*run, error) {
	o, err := o.effective(k)
	if err != nil {
		return nil, err
	}
	if len(p.SampleType) == 0 {
		return nil, errors.New("profile has no samples")
	}
	si, err := p.SampleIndexByName(o.SampleIndex)
	if err != nil {
		return nil, err
	}
	r := &run{p: p, o: o, kind: k, val: valuer{si, -1}}
	st := p.SampleType[si]
	r.sampleType, r.sampleUnit = st.Type, st.Unit
	if o.Mean {
		r.val.div = 0
		r.sampleType = "mean_" + r.sampleType
	}
	units, ignored := p.NumLabelUnits()
	r.numUnits = units
	if o.Warnings != nil {
		keys := make([]string, 0, len(ignored))
		for key := range ignored {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			fmt.Fprintf(o.Warnings, "For tag %s used unit %s, also encountered unit(s) %s\n", key, units[key], strings.Join(ignored[key], ", "))
		}
	}
	if (k == Peek || k == List) && o.Symbol == "" {
		return nil, fmt.Errorf("%s needs a regexp", k)
	}
	if o.RelativePercentages {
		if err := applyFilters(p, &r.o, units); err != nil {
			return nil, err
		}
	}
	r.total = r.computeTotal()
	if !o.RelativePercentages {
		if err := applyFilters(p, &r.o, units); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// computeTotal sums the absolute sample values; in a -diff_base profile
// only the base's samples count.
func (r *run) computeTotal() int64 {
	var total, div, diffTotal, diffDiv int64
	for _, s := range r.p.Sample {
		v, d := r.val.get(s.Value)
		v = abs64(v)
		total += v
		div += d
		if s.DiffBaseSample() {
			diffTotal += v
			diffDiv += d
		}
	}
	if diffTotal > 0 {
		total, div = diffTotal, diffDiv
	}
	return divide(total, div)
}

// symbolRegexp compiles the symbol regexp of peek and list.
func (r *run) symbolRegexp() (*regexp.Regexp, error) {
	rx, err := regexp.Compile(r.o.Symbol)
	if err != nil {
		return nil, fmt.Errorf("parsing argument regexp %s: %w", r.o.Symbol, err)
	}
	return rx, nil
}

// format prints a value in the output unit, after -divide_by.
func (r *run) format(v int64) string {
	return scaledLabel(r.divided(v), r.sampleUnit, r.o.Unit)
}

// divided applies -divide_by to v.
func (r *run) divided(v int64) int64 {
	if d := r.o.DivideBy; d != 1 {
		if ratio := 1 / d; ratio > 0 {
			v = int64(float64(v) * ratio)
		}
	}
	return v
}

// profileLabels are the header lines describing the profile.
func (r *run) profileLabels() []string {
	var out []string
	p := r.p
	if len(p.Mapping) > 0 {
		if f := p.Mapping[0].File; f != "" {
			out = append(out, "File: "+filepath.Base(f))
		}
		if id := p.Mapping[0].BuildID; id != "" {
			out = append(out, "Build ID: "+id)
		}
	}
	for _, c := range p.Comments {
		if !strings.HasPrefix(c, "#") {
			out = append(out, c)
		}
	}
	if r.sampleType != "" {
		out = append(out, "Type: "+r.sampleType)
	}
	if p.DocURL != "" {
		out = append(out, "Doc: "+p.DocURL)
	}
	if p.TimeNanos != 0 {
		out = append(out, "Time: "+time.Unix(0, p.TimeNanos).Format("2006-01-02 15:04:05 MST"))
	}
	if p.DurationNanos != 0 {
		var ratio string
		if ns, u := scale(r.total, r.sampleUnit, "nanoseconds"); u == "ns" && ns != 0 {
			ratio = "(" + percentage(int64(ns), p.DurationNanos) + ")"
		}
		out = append(out, fmt.Sprintf("Duration: %s, Total samples = %s %s",
			autoLabel(p.DurationNanos, "nanoseconds"), r.format(r.total), ratio))
	}
	return out
}

// graphLabels are the header lines of top and tree: the profile's labels
// (unless -compact_labels), the active filters and what was trimmed.
func (r *run) graphLabels(g *trimmed) []string {
	var out []string
	if !r.o.CompactLabels {
		out = r.profileLabels()
	}
	out = append(out, r.filterLabels()...)
	shown := g.shownTotal()
	out = append(out, fmt.Sprintf("Showing nodes accounting for %s, %s of %s total",
		r.format(shown), strings.TrimSpace(percentage(shown, r.total)), r.format(r.total)))
	if r.total != 0 {
		if g.dropped > 0 {
			noun := "node"
			if g.dropped > 1 {
				noun = "nodes"
			}
			cut := abs64(int64(float64(r.total) * r.o.NodeFraction))
			out = append(out, fmt.Sprintf("Dropped %d %s (cum <= %s)", g.dropped, noun, r.format(cut)))
		}
		if n := len(g.nodes); n > 0 && n < g.origCount {
			out = append(out, fmt.Sprintf("Showing top %d nodes out of %d", n, g.origCount))
		}
	}
	return out
}

// filterLabels are the legend's lines about the active filters.
func (r *run) filterLabels() []string {
	fs := r.o.ActiveFilters()
	if len(fs) == 0 {
		return nil
	}
	out := []string{"Active filters:"}
	for _, f := range fs {
		if len(f) > 80 {
			f = f[:80] + "…"
		}
		out = append(out, "   "+f)
	}
	return out
}

// Describe returns the lines pprof prints about p on entering its shell —
// File, Type, Time, Duration and total — and the total of the default
// sample value. It leaves p as it is.
func Describe(p *profile.Profile) (labels []string, total int64, err error) {
	// The default options filter nothing, so prepare does not change p.
	r, err := prepare(p, Top, DefaultOptions())
	if err != nil {
		return nil, 0, err
	}
	return r.profileLabels(), r.total, nil
}
