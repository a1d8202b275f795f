package report

import (
	"errors"

	"github.com/google/pprof/profile"
)

// Filter applies o's sample filters (-focus, -ignore, -hide, -show,
// -show_from, -tagfocus, -tagignore) to p in place, as every report does
// before computing its values; tools outside this package that walk the
// samples themselves (perflab escapes) call it to honour the same flags.
func Filter(p *profile.Profile, o Options) error {
	if len(p.SampleType) == 0 {
		return errors.New("profile has no samples")
	}
	units, _ := p.NumLabelUnits()
	return applyFilters(p, &o, units)
}
