package report

import (
	"github.com/google/pprof/profile"
)

// A Summary is what pprof's header says of a profile's default sample
// value ("Type: cpu", "Total samples = 990ms"), and how many samples that
// total adds up.
type Summary struct {
	// Type is the default sample type, as "Type:" shows it.
	Type string
	// Total is its total, formatted as "Total samples =" shows it.
	Total string
	// Samples is the sum of the profile's "samples" values in count (a
	// CPU profile's first column): the number of samples the profiler
	// took, whatever the number of records holding them. It is -1 when
	// the profile has no such column.
	Samples int64
	// Period is the sampling period ("10ms"), "" when the profile has none.
	Period string
}

// Summarize returns p's Summary. It leaves p as it is.
func Summarize(p *profile.Profile) (Summary, error) {
	r, err := prepare(p, Top, DefaultOptions())
	if err != nil {
		return Summary{}, err
	}
	r.buildGraph(nil) // the unit of the total, as the top report's header picks it
	s := Summary{Type: r.sampleType, Total: r.format(r.total), Samples: -1}
	for i, st := range p.SampleType {
		if st.Type != "samples" || st.Unit != "count" {
			continue
		}
		s.Samples = 0
		for _, sm := range p.Sample {
			if i < len(sm.Value) {
				s.Samples += sm.Value[i]
			}
		}
		break
	}
	if p.Period > 0 && p.PeriodType != nil {
		s.Period = autoLabel(p.Period, p.PeriodType.Unit)
	}
	return s, nil
}
