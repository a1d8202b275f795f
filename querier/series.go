package querier

import (
	"context"
	"slices"
	"time"

	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/store"
)

// sums returns the store's totals of q as Pyroscope's series.
func (s *Service) sums(ctx context.Context, q store.TotalsQuery) ([]*typesv1.Series, error) {
	totals, err := s.reader.Totals(ctx, q)
	if err != nil {
		return nil, err
	}
	out := make([]*typesv1.Series, len(totals))
	for i, ts := range totals {
		out[i] = &typesv1.Series{Labels: labelPairs(ts.Labels)}
		for _, p := range ts.Points {
			out[i].Points = append(out[i].Points, &typesv1.Point{Value: float64(p.Value), Timestamp: p.Time.UnixMilli()})
		}
	}
	return out, nil
}

// averages returns q's series with the average of the profiles' totals in
// each bucket instead of their sum, from the list of the profiles q
// selects: the buckets and groups are those of the store's Totals.
func (s *Service) averages(ctx context.Context, q store.TotalsQuery) ([]*typesv1.Series, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	infos, err := s.reader.Profiles(ctx, q.Selection, 0)
	if err != nil {
		return nil, err
	}
	type bucket struct{ sum, n int64 }
	type group struct {
		labels  store.Labels
		buckets map[time.Time]*bucket
	}
	groups := map[string]*group{}
	for _, in := range infos {
		var ls store.Labels
		for _, name := range q.GroupBy {
			ls = ls.With(name, in.Labels.Get(name))
		}
		g := groups[ls.String()]
		if g == nil {
			g = &group{labels: ls, buckets: map[time.Time]*bucket{}}
			groups[ls.String()] = g
		}
		t := store.BucketStart(in.Time, q.Step)
		b := g.buckets[t]
		if b == nil {
			b = &bucket{}
			g.buckets[t] = b
		}
		b.sum += in.Total
		b.n++
	}
	var out []*typesv1.Series
	for _, g := range sortedGroups(groups, func(g *group) store.Labels { return g.labels }) {
		ts := &typesv1.Series{Labels: labelPairs(g.labels)}
		times := make([]time.Time, 0, len(g.buckets))
		for t := range g.buckets {
			times = append(times, t)
		}
		slices.SortFunc(times, time.Time.Compare)
		for _, t := range times {
			b := g.buckets[t]
			ts.Points = append(ts.Points, &typesv1.Point{Value: float64(b.sum) / float64(b.n), Timestamp: t.UnixMilli()})
		}
		out = append(out, ts)
	}
	return out, nil
}

// sortedGroups returns the values of m sorted by their labels.
func sortedGroups[G any](m map[string]G, labels func(G) store.Labels) []G {
	out := make([]G, 0, len(m))
	for _, g := range m {
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b G) int { return labels(a).Compare(labels(b)) })
	return out
}

// largest returns the n series whose points add up to the most, in the
// order they came in.
func largest(series []*typesv1.Series, n int) []*typesv1.Series {
	if len(series) <= n {
		return series
	}
	sum := func(ts *typesv1.Series) (v float64) {
		for _, p := range ts.Points {
			v += p.Value
		}
		return v
	}
	order := make([]int, len(series))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := sum(series[a]), sum(series[b])
		switch {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return 0
	})
	order = order[:n]
	slices.Sort(order)
	out := make([]*typesv1.Series, n)
	for i, j := range order {
		out[i] = series[j]
	}
	return out
}
