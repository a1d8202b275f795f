package profiles

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/units"
)

// Merge combines profiles of the same kind into one, as pprof merges
// several sources: sample types are first made compatible
// (profile.CompatibilizeSampleTypes), values in different units of one
// dimension (bytes and kilobytes, nanoseconds and seconds) are converted to
// the finest unit, and samples with the same stack and labels are added.
// A single profile is returned as is (so zero-valued samples stay, as in
// pprof); merging several drops them. Merge may modify its arguments.
func Merge(ps []*profile.Profile) (*profile.Profile, error) {
	if len(ps) == 0 {
		return nil, errors.New("no profiles to merge")
	}
	if err := profile.CompatibilizeSampleTypes(ps); err != nil {
		return nil, fmt.Errorf("incompatible profiles, sample types %s: %w", describeTypes(ps), err)
	}
	if err := scaleProfiles(ps); err != nil {
		return nil, err
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	return profile.Merge(ps)
}

// describeTypes lists the distinct sample type lists of profiles.
func describeTypes(ps []*profile.Profile) string {
	var kinds []string
	for _, p := range ps {
		var ts []string
		for _, st := range p.SampleType {
			ts = append(ts, st.Type+"/"+st.Unit)
		}
		k := "[" + strings.Join(ts, " ") + "]"
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return strings.Join(kinds, " and ")
}

// ApplyBase returns p minus base, as pprof's -base and -diff_base compute
// it: base's values are negated and merged with p's, so that samples
// present in both cancel out. With diff set (-diff_base), base's
// samples are first labelled pprof::base=true: they stay separate from p's
// samples, and reports compute percentages relative to the base's total
// (pprof's total sums the absolute values of the labelled samples only). ApplyBase modifies both arguments; use only the result.
//
// For pprof's -normalize, call p.Normalize(base) before ApplyBase.
func ApplyBase(p, base *profile.Profile, diff bool) (*profile.Profile, error) {
	if diff {
		base.SetLabel("pprof::base", []string{"true"})
	}
	base.Scale(-1)
	return Merge([]*profile.Profile{p, base})
}

// finest returns the finest of the value types at one position in several
// profiles, or nil if there is only one profile.
func finest(ts []*profile.ValueType) (*profile.ValueType, error) {
	if len(ts) <= 1 {
		return nil, nil
	}
	var min *profile.ValueType
	for _, t := range ts {
		switch {
		case t == nil:
			continue
		case min == nil:
			min = t
			continue
		case strings.TrimSuffix(min.Type, "s") != strings.TrimSuffix(t.Type, "s"):
			return nil, fmt.Errorf("incompatible types: %s/%s and %s/%s", min.Type, min.Unit, t.Type, t.Unit)
		case !units.Compatible(min.Unit, t.Unit):
			return nil, fmt.Errorf("incompatible units: %s/%s and %s/%s", min.Type, min.Unit, t.Type, t.Unit)
		}
		if units.Ratio(t.Unit, min.Unit) < 1 {
			min = t
		}
	}
	if min == nil {
		return nil, nil
	}
	c := *min
	return &c, nil
}

// scaleProfiles converts the periods and values of several profiles to
// common units, the finest each dimension has among them.
func scaleProfiles(ps []*profile.Profile) error {
	var periods []*profile.ValueType
	for _, p := range ps {
		if p.PeriodType != nil {
			periods = append(periods, p.PeriodType)
		}
	}
	period, err := finest(periods)
	if err != nil {
		return fmt.Errorf("period type: %w", err)
	}
	n := len(ps[0].SampleType)
	common := make([]*profile.ValueType, n)
	for i := range n {
		ts := make([]*profile.ValueType, len(ps))
		for j, p := range ps {
			if len(p.SampleType) != n {
				return fmt.Errorf("inconsistent sample type count: %d != %d", n, len(p.SampleType))
			}
			ts[j] = p.SampleType[i]
		}
		if common[i], err = finest(ts); err != nil {
			return fmt.Errorf("sample types: %w", err)
		}
	}
	for _, p := range ps {
		if p.PeriodType != nil && period != nil {
			p.Period = int64(float64(p.Period) * units.Ratio(p.PeriodType.Unit, period.Unit))
			p.PeriodType.Unit = period.Unit
		}
		ratios := make([]float64, n)
		for i, st := range p.SampleType {
			ratios[i] = 1
			if common[i] != nil {
				ratios[i] = units.Ratio(st.Unit, common[i].Unit)
				st.Unit = common[i].Unit
			}
		}
		if err := p.ScaleN(ratios); err != nil {
			return err
		}
	}
	return nil
}
