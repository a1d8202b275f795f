package report

import (
	"github.com/google/pprof/profile"
)

// Stacks is a profile's samples after Options' filters, each as a stack of
// frame IDs at Options' granularity: the input of flame graphs, which need
// whole stacks where the reports above need only per-node sums. A frame is
// what a node of top or tree is for the same options, so a flame graph's
// figures can be checked against top's.
type Stacks struct {
	Frames     []Frame // by frame ID
	SampleType string  // as top's Type: header shows it (mean_ prefix for -mean)
	SampleUnit string
	Total      int64 // the 100% of top's percentages
	Mean       bool  // values are divided by divisors (-mean)

	ix      *index
	samples []*profile.Sample
	stacks  [][]*profile.Location // the samples' locations after the filters
	val     valuer
}

// A Frame is one node of Stacks.
type Frame struct {
	Name     string // as reports print the node
	Function string // the function's name; "" at files granularity
	// File and Line locate the frame for a reader: the function's file
	// and start line, or the line itself at lines and addresses
	// granularity; set whatever the granularity when the profile has them.
	File string
	Line int
}

// NewStacks applies o's filters to p, leaving p as it is, and interns the
// remaining samples' frames at o's granularity. The filters have pprof's
// meanings and results but work on arrays indexed by location (see
// stackFilter), so that refining a large profile takes a fraction of a
// second where filtering a copy with pprof's code takes seconds.
func NewStacks(p *profile.Profile, o Options) (*Stacks, error) {
	noFilters := o
	noFilters.Focus, noFilters.Ignore, noFilters.Hide, noFilters.Show, noFilters.ShowFrom = "", "", "", "", ""
	noFilters.TagFocus, noFilters.TagIgnore, noFilters.RelativePercentages = "", "", false
	noFilters.TagShow, noFilters.TagHide = "", ""
	// Without filters prepare changes nothing in p; with -tagroot or
	// -tagleaf it returns a profile with label frames in r.p.
	r, err := prepare(p, Top, noFilters)
	if err != nil {
		return nil, err
	}
	p = r.p
	r.o.Focus, r.o.Ignore, r.o.Hide, r.o.Show, r.o.ShowFrom = o.Focus, o.Ignore, o.Hide, o.Show, o.ShowFrom
	r.o.TagFocus, r.o.TagIgnore, r.o.TagShow, r.o.TagHide = o.TagFocus, o.TagIgnore, o.TagShow, o.TagHide
	samples, stacks, locs, err := filterStacks(p, &r.o, r.numUnits)
	if err != nil {
		return nil, err
	}
	if o.RelativePercentages {
		r.p = &profile.Profile{Sample: samples}
		r.total = r.computeTotal()
	}
	c := profile.Profile{Function: p.Function}
	c.Location = make([]*profile.Location, len(locs))
	for i := range locs {
		c.Location[i] = &locs[i]
	}
	g := newGranularity(&r.o, false, true)
	ix := newFrameIndex(&c, g)
	ix.locs = newLocIndex(p.Location) // the stacks point at p's locations
	s := &Stacks{SampleType: r.sampleType, SampleUnit: r.sampleUnit, Total: r.total, Mean: o.Mean,
		ix: ix, samples: samples, stacks: stacks, val: r.val}
	s.Frames = make([]Frame, len(ix.infos))
	for i, ni := range ix.infos {
		s.Frames[i] = Frame{Name: ix.names[i], Function: ni.Name, File: ni.File, Line: ni.Lineno}
	}
	s.locateFrames(&c, &g)
	return s, nil
}

// locateFrames sets the file and line of frames whose granularity left
// them out, from the first line of the profile that maps to them.
func (s *Stacks) locateFrames(p *profile.Profile, g *granularity) {
	k := 0
	for _, l := range p.Location {
		lines := l.Line
		if !g.inlines && len(lines) > 1 {
			lines = lines[len(lines)-1:]
		}
		if len(lines) == 0 {
			k++
			continue
		}
		for _, ln := range lines {
			f := &s.Frames[s.ix.locNodes[k]]
			k++
			if f.File != "" || ln.Function == nil {
				continue
			}
			f.File = ln.Function.Filename
			if f.Line == 0 {
				f.Line = int(ln.Function.StartLine)
			}
		}
	}
}

// Len returns the number of samples left after the filters.
func (s *Stacks) Len() int { return len(s.samples) }

// Stack appends sample i's frame IDs to buf, root first, and returns it.
func (s *Stacks) Stack(i int, buf []int32) []int32 {
	ix := s.ix
	locs := s.stacks[i]
	for k := len(locs) - 1; k >= 0; k-- {
		loc := ix.locs.get(locs[k])
		if loc < 0 {
			continue
		}
		for j := ix.locStart[loc+1] - 1; j >= ix.locStart[loc]; j-- {
			buf = append(buf, ix.locNodes[j])
		}
	}
	return buf
}

// Value returns sample i's value and, for -mean, its divisor; base
// reports whether the sample belongs to a -diff_base base (its value is
// then the negated base value).
func (s *Stacks) Value(i int) (w, div int64, base bool) {
	sm := s.samples[i]
	w, div = s.val.get(sm.Value)
	return w, div, len(sm.Label) > 0 && sm.DiffBaseSample()
}

// SizeHint estimates the number of frames of all stacks together, for
// callers that copy them into one array.
func (s *Stacks) SizeHint() int {
	n := 0
	for _, locs := range s.stacks {
		n += len(locs)
	}
	locs := len(s.ix.locStart) - 1
	if locs <= 0 {
		return n
	}
	return n*len(s.ix.locNodes)/locs + n/16 + 16
}
