package profiles

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/pprof/profile"
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

// A unit is one unit of measure and its size in its dimension's base unit.
type unit struct {
	aliases []string // lower case
	factor  float64
}

// dimensions lists the units pprof converts between, one dimension each.
var dimensions = [][]unit{
	{
		{[]string{"b", "byte"}, 1},
		{[]string{"kb", "kbyte", "kilobyte"}, 1 << 10},
		{[]string{"mb", "mbyte", "megabyte"}, 1 << 20},
		{[]string{"gb", "gbyte", "gigabyte"}, 1 << 30},
		{[]string{"tb", "tbyte", "terabyte"}, 1 << 40},
		{[]string{"pb", "pbyte", "petabyte"}, 1 << 50},
	},
	{
		{[]string{"ns", "nanosecond"}, 1},
		{[]string{"μs", "us", "microsecond"}, 1e3},
		{[]string{"ms", "millisecond"}, 1e6},
		{[]string{"s", "sec", "second"}, 1e9},
		{[]string{"hour", "hr"}, 3600e9},
	},
	{
		{[]string{"nanogcu"}, 1e-9},
		{[]string{"microgcu"}, 1e-6},
		{[]string{"milligcu"}, 1e-3},
		{[]string{"gcu"}, 1},
		{[]string{"kilogcu"}, 1e3},
		{[]string{"megagcu"}, 1e6},
		{[]string{"gigagcu"}, 1e9},
		{[]string{"teragcu"}, 1e12},
		{[]string{"petagcu"}, 1e15},
	},
}

// findUnit returns the dimension and unit a unit name denotes, ignoring
// case and a plural s.
func findUnit(name string) (dim int, u *unit) {
	name = strings.ToLower(name)
	if utf8.RuneCountInString(name) > 2 {
		name = strings.TrimSuffix(name, "s")
	}
	for d, units := range dimensions {
		for i := range units {
			for _, a := range units[i].aliases {
				if a == name {
					return d, &units[i]
				}
			}
		}
	}
	return -1, nil
}

// ratio returns how many to-units one from-unit is, or 1 if they are not
// two known units of one dimension.
func ratio(from, to string) float64 {
	df, uf := findUnit(from)
	dt, ut := findUnit(to)
	if uf == nil || ut == nil || df != dt {
		return 1
	}
	return uf.factor / ut.factor
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
		case min.Unit != t.Unit:
			dm, um := findUnit(min.Unit)
			dt, ut := findUnit(t.Unit)
			if um == nil || ut == nil || dm != dt {
				return nil, fmt.Errorf("incompatible units: %s/%s and %s/%s", min.Type, min.Unit, t.Type, t.Unit)
			}
		}
		if ratio(t.Unit, min.Unit) < 1 {
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
			p.Period = int64(float64(p.Period) * ratio(p.PeriodType.Unit, period.Unit))
			p.PeriodType.Unit = period.Unit
		}
		ratios := make([]float64, n)
		for i, st := range p.SampleType {
			ratios[i] = 1
			if common[i] != nil {
				ratios[i] = ratio(st.Unit, common[i].Unit)
				st.Unit = common[i].Unit
			}
		}
		if err := p.ScaleN(ratios); err != nil {
			return err
		}
	}
	return nil
}
