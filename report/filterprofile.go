package report

import (
	"errors"

	"github.com/google/pprof/profile"
)

// Filter applies o's sample filters (-focus, -ignore, -hide, -show,
// -show_from, -tagfocus, -tagignore) and label filters (-tagshow,
// -taghide; label maps are replaced, not edited) to p in place, with the
// results every report's own filtering has; tools outside this package that walk the
// samples themselves (perflab escapes, the web UI's download of a refined
// profile) call it to honour the same flags. -tagroot and -tagleaf,
// which add frames rather than filter, are not applied.
func Filter(p *profile.Profile, o Options) error {
	if len(p.SampleType) == 0 {
		return errors.New("profile has no samples")
	}
	units, _ := p.NumLabelUnits()
	return applyFilters(p, &o, units)
}
