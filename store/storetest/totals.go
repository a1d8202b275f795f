package storetest

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	"github.com/perflab/perflab/store"
)

// Totals returns q's time series: for each combination of the GroupBy
// labels' values (a missing label counts as "", and is kept as a label of
// value ""), one point for each bucket of q.Step that holds a picked
// profile, the sum of the profiles' totals of q.Type, counting with a
// Focus only the samples whose stack has a location that matches it (see
// store.Location.MatchesFocus, with the profile's own mapping of its Key).
// It returns an error wrapping store.ErrInvalid when q has no Type or a
// Step that is not positive.
func (r *Reference) Totals(ctx context.Context, q store.TotalsQuery) ([]store.TimeSeries, error) {
	if q.Type == (store.ProfileType{}) || q.Step <= 0 {
		return nil, fmt.Errorf("totals of %s: need a profile type and a positive step: %w", q.Selector, store.ErrInvalid)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	type point struct {
		series string
		bucket int64
	}
	sums := map[point]int64{}
	groups := map[string]store.Labels{}
	focus := r.focus(q.Focus)
	for _, s := range r.picked(q.Selection) {
		var g store.Labels
		for _, name := range q.GroupBy {
			g = g.With(name, s.labels.Get(name))
		}
		key := g.String()
		groups[key] = g
		sums[point{key, store.BucketStart(s.time, q.Step).UnixNano()}] += total(s, q.Type, focus)
	}
	var out []store.TimeSeries
	for key, g := range groups {
		ts := store.TimeSeries{Labels: g}
		for p, v := range sums {
			if p.series == key {
				ts.Points = append(ts.Points, store.Point{Time: time.Unix(0, p.bucket).UTC(), Value: v})
			}
		}
		slices.SortFunc(ts.Points, func(a, b store.Point) int { return a.Time.Compare(b.Time) })
		out = append(out, ts)
	}
	slices.SortFunc(out, func(a, b store.TimeSeries) int { return a.Labels.Compare(b.Labels) })
	return out, nil
}

// focus returns the predicate of the stacks of a profile that match re,
// or nil when re is nil.
func (r *Reference) focus(re *regexp.Regexp) func(*stored, store.Hash) bool {
	if re == nil {
		return nil
	}
	function := func(h store.Hash) store.Function { return r.parts.Functions[h] }
	type frame struct {
		loc  store.Hash
		file string
	}
	matches := map[frame]bool{} // remembered: the regexp is the slow part
	return func(s *stored, stack store.Hash) bool {
		for _, l := range r.parts.Stacks[stack] {
			loc := r.parts.Locations[l]
			f := frame{l, s.mappingFiles[loc.Mapping]}
			m, ok := matches[f]
			if !ok {
				m = loc.MatchesFocus(re, function, f.file)
				matches[f] = m
			}
			if m {
				return true
			}
		}
		return false
	}
}

// total returns the sum of s's values of type t over the samples that
// keep accepts (all when keep is nil), or 0 when s lacks t.
func total(s *stored, t store.ProfileType, keep func(*stored, store.Hash) bool) int64 {
	i := s.header.Index(t)
	if i < 0 {
		return 0
	}
	var sum int64
	for _, x := range s.samples {
		if keep == nil || keep(s, x.Stack) {
			sum += x.Values[i]
		}
	}
	return sum
}
