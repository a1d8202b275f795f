package report

import (
	"github.com/google/pprof/profile"
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
	n := 0
	for _, st := range stacks {
		n += len(st)
	}
	arena := make([]*profile.Location, n) // every stack in one array
	copies := make([]profile.Sample, len(samples))
	c.Sample = make([]*profile.Sample, len(samples))
	for i, s := range samples {
		copies[i] = *s
		st := arena[:len(stacks[i]):len(stacks[i])]
		arena = arena[len(st):]
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
	return c, nil
}
