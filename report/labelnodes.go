package report

import (
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// withLabelNodes returns p with pseudo frames for the label values of
// rootKeys above every stack and of leafKeys below it, as pprof's -tagroot
// and -tagleaf do (internal/driver's addLabelNodes): each frame is a
// function named by the sample's values of one key (string values, then
// numeric ones in unit, joined by commas; "" when the sample has none)
// with the key as its file name; the first root key is the new root and
// the last leaf key the new leaf. p is left as it is: the result has new
// samples, locations and functions slices and shares the rest. The flags
// report whether any sample had a value for a root or a leaf key.
func withLabelNodes(p *profile.Profile, rootKeys, leafKeys []string, unit string) (q *profile.Profile, rootm, leafm bool) {
	if len(rootKeys)+len(leafKeys) == 0 {
		return p, false, false
	}
	q = &profile.Profile{SampleType: p.SampleType, DefaultSampleType: p.DefaultSampleType,
		Mapping: p.Mapping, Location: slices.Clip(p.Location), Function: slices.Clip(p.Function),
		Comments: p.Comments, DocURL: p.DocURL, DropFrames: p.DropFrames, KeepFrames: p.KeepFrames,
		TimeNanos: p.TimeNanos, DurationNanos: p.DurationNanos, PeriodType: p.PeriodType, Period: p.Period}
	var maxLoc, maxFn uint64
	for _, l := range p.Location {
		maxLoc = max(maxLoc, l.ID)
	}
	for _, f := range p.Function {
		maxFn = max(maxFn, f.ID)
	}
	type locKey struct{ name, file string }
	interned := map[locKey]*profile.Location{}
	intern := func(k locKey) *profile.Location {
		if l, ok := interned[k]; ok {
			return l
		}
		maxFn++
		fn := &profile.Function{ID: maxFn, Name: k.name, Filename: k.file}
		q.Function = append(q.Function, fn)
		maxLoc++
		l := &profile.Location{ID: maxLoc, Line: []profile.Line{{Function: fn}}}
		q.Location = append(q.Location, l)
		interned[k] = l
		return l
	}
	frames := func(s *profile.Sample, keys []string, out []*profile.Location) ([]*profile.Location, bool) {
		match := false
		for i := len(keys) - 1; i >= 0; i-- { // the first key nearest the root
			values := labelValues(s, keys[i], unit)
			match = match || len(values) > 0
			out = append(out, intern(locKey{strings.Join(values, ","), keys[i]}))
		}
		return out, match
	}
	samples := make([]profile.Sample, len(p.Sample))
	q.Sample = make([]*profile.Sample, len(p.Sample))
	for i, s := range p.Sample {
		samples[i] = *s
		ns := &samples[i]
		q.Sample[i] = ns
		locs := make([]*profile.Location, 0, len(s.Location)+len(rootKeys)+len(leafKeys))
		var m bool
		locs, m = frames(s, leafKeys, locs)
		leafm = leafm || m
		locs = append(locs, s.Location...)
		locs, m = frames(s, rootKeys, locs)
		rootm = rootm || m
		ns.Location = locs
	}
	return q, rootm, leafm
}

// labelValues returns sample s's string values of label key, then its
// numeric ones formatted in unit, as pprof's formatLabelValues.
func labelValues(s *profile.Sample, key, unit string) []string {
	values := slices.Clone(s.Label[key])
	nums, units := s.NumLabel[key], s.NumUnit[key]
	if len(nums) != len(units) && len(units) != 0 {
		return values
	}
	for i, n := range nums {
		if len(units) != 0 {
			values = append(values, scaledLabel(n, units[i], unit))
		} else {
			values = append(values, scaledLabel(n, "", ""))
		}
	}
	return values
}

// labelKeys splits a -tagroot or -tagleaf value: comma-separated keys,
// empty ones dropped.
func labelKeys(v string) []string {
	var keys []string
	for _, k := range strings.Split(v, ",") {
		if k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// addLabelNodes applies o's -tagroot and -tagleaf to p (see
// withLabelNodes) and warns, as pprof does, about keys no sample has.
func addLabelNodes(p *profile.Profile, o *Options) *profile.Profile {
	q, rootm, leafm := withLabelNodes(p, labelKeys(o.TagRoot), labelKeys(o.TagLeaf), o.Unit)
	warnIf(o.Warnings, o.TagRoot != "" && !rootm, "TagRoot")
	warnIf(o.Warnings, o.TagLeaf != "" && !leafm, "TagLeaf")
	return q
}

// tagNameFilter returns what -tagshow and -taghide do to one sample, as
// pprof's Profile.FilterTagsByName: the labels whose key tagshow does not
// match or taghide matches are removed. The sample's label maps are
// replaced, never edited, since copies of a profile may share them. The
// flags report whether some key matched tagshow and taghide.
type tagNameFilter struct {
	show, hide *regexp.Regexp
	sm, hm     bool
}

func (f *tagNameFilter) remove(key string) bool {
	show := f.show == nil || f.show.MatchString(key)
	hide := f.hide != nil && f.hide.MatchString(key)
	f.sm = f.sm || show
	f.hm = f.hm || hide
	return !show || hide
}

// apply returns s's labels after the filter; changed tells whether any
// was removed.
func (f *tagNameFilter) apply(s *profile.Sample) (label map[string][]string, num map[string][]int64, changed bool) {
	label, num = s.Label, s.NumLabel
	for k := range s.Label {
		if f.remove(k) {
			changed = true
		}
	}
	for k := range s.NumLabel {
		if f.remove(k) {
			changed = true
		}
	}
	if !changed {
		return label, num, false
	}
	label = filterKeys(s.Label, f.remove)
	num = filterKeys(s.NumLabel, f.remove)
	return label, num, true
}

// filterKeys returns a copy of m without the keys remove reports, or nil
// for a nil m.
func filterKeys[V any](m map[string]V, remove func(string) bool) map[string]V {
	if m == nil {
		return nil
	}
	out := make(map[string]V, len(m))
	for k, v := range m {
		if !remove(k) {
			out[k] = v
		}
	}
	return out
}

// warn prints pprof's warnings for a -tagshow or -taghide that matched
// no label key.
func (f *tagNameFilter) warn(w io.Writer) {
	warnIf(w, f.show != nil && !f.sm, "TagShow")
	warnIf(w, f.hide != nil && !f.hm, "TagHide")
}
