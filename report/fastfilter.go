package report

import (
	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/parallel"
)

// filtered returns p after o's filters, as applyFilters would leave it,
// without changing p: the filters run on location-indexed arrays
// (filterStacks), and the result shares p's functions, mappings, values
// and labels. When no filter edits frames (-hide, -show, -show_from), the
// kept samples and p's locations are shared too; otherwise the samples
// are new structs whose stacks point at filtered copies of the locations.
// Reports then read a filtered profile in a fraction of the time pprof's
// filters take on a copy, and the caller's profile stays reusable.
func filtered(p *profile.Profile, o *Options, units map[string]string) (*profile.Profile, error) {
	samples, stacks, locs, err := filterStacks(p, o, units)
	if err != nil {
		return nil, err
	}
	c := &profile.Profile{SampleType: p.SampleType, DefaultSampleType: p.DefaultSampleType,
		Mapping: p.Mapping, Location: p.Location, Function: p.Function, Comments: p.Comments,
		DocURL: p.DocURL, DropFrames: p.DropFrames, KeepFrames: p.KeepFrames, TimeNanos: p.TimeNanos,
		DurationNanos: p.DurationNanos, PeriodType: p.PeriodType, Period: p.Period, Sample: samples}
	if o.Hide == "" && o.Show == "" && o.ShowFrom == "" {
		return c, nil // stacks[i] is samples[i].Location, lines untouched
	}
	c.Location = make([]*profile.Location, len(locs))
	for i := range locs {
		c.Location[i] = &locs[i]
	}
	li := newLocIndex(p.Location)
	// Each stack gets the filtered copies of its locations: in place when
	// the filter made it (-hide, -show thin stacks into an array of their
	// own), else in a new array (stacks that are, or are cut from, the
	// sample's own: -show_from, or no location wholly hidden).
	start := make([]int, len(stacks)+1) // stack i's new array is arena[start[i]:start[i+1]]
	for i, st := range stacks {
		n := 0
		if own := samples[i].Location; len(st) > 0 && len(own) > 0 && &st[0] == &own[0] {
			n = len(st)
		}
		start[i+1] = start[i] + n
	}
	arena := make([]*profile.Location, start[len(stacks)])
	copies := make([]profile.Sample, len(samples))
	c.Sample = make([]*profile.Sample, len(samples))
	parallel.Run(parallel.Split(len(samples), parallelMin), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			copies[i] = *samples[i]
			st := stacks[i]
			if start[i+1] > start[i] {
				st = arena[start[i]:start[i+1]:start[i+1]]
			}
			for k, l := range stacks[i] {
				if j := li.get(l); j >= 0 {
					st[k] = c.Location[j]
				} else {
					st[k] = l
				}
			}
			copies[i].Location = st
			c.Sample[i] = &copies[i]
		}
	})
	return c, nil
}
