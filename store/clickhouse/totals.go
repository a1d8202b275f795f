package clickhouse

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/perflab/perflab/store"
)

// A point is a series' total in one bucket of a Totals query.
type point struct {
	series uint64
	bucket int64
}

// Totals returns q's time series. Without a Focus, ClickHouse adds up the
// profiles' totals by series and bucket. With one, it lists the distinct
// stacks of the range (with the files of their profiles' mappings), perflab
// matches their frames with Go's regular expression, and ClickHouse adds
// up the samples of the stacks that match.
func (st *Store) Totals(ctx context.Context, q store.TotalsQuery) ([]store.TimeSeries, error) {
	if q.Type == (store.ProfileType{}) || q.Step <= 0 {
		return nil, fmt.Errorf("totals of %s: need a profile type and a positive step: %w", q.Selector, store.ErrInvalid)
	}
	p, err := st.pick(ctx, q.Selection)
	if err != nil || p.empty() {
		return nil, err
	}
	step := int64(q.Step)
	sums := map[point]int64{}
	sql := fmt.Sprintf("SELECT series, %s AS b, sum(totals[indexOf(types, %s)]) FROM profiles WHERE %s GROUP BY series, b", bucketOf("time", step), quote(q.Type.ID()), p.profiles())
	err = st.queryPicked(ctx, p, "adding up totals", sql, func(r *rowReader) error {
		for r.more() {
			pt := point{r.uint64(), r.int64()}
			sums[pt] = r.int64()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if q.Focus != nil {
		focused, err := st.focusedTotals(ctx, p, q.Focus, step)
		if err != nil {
			return nil, err
		}
		for pt := range sums {
			sums[pt] = focused[pt] // a bucket of picked profiles stays, at 0
		}
	}
	return group(sums, p.series, q.GroupBy), nil
}

// bucketOf returns the SQL of the start of the bucket of step that the
// time in column holds: store.BucketStart, for negative times too.
func bucketOf(column string, step int64) string {
	return fmt.Sprintf("%[1]s - ((%[1]s %% %[2]d) + %[2]d) %% %[2]d", column, step)
}

// group adds up the sums of series with the same values of the labels
// groupBy (a missing label counts as ""), in series sorted by those labels
// and points sorted by time.
func group(sums map[point]int64, series map[uint64]store.Labels, groupBy []string) []store.TimeSeries {
	labels := map[string]store.Labels{}
	points := map[string]map[int64]int64{}
	for pt, v := range sums {
		var g store.Labels
		for _, name := range groupBy {
			g = g.With(name, series[pt.series].Get(name))
		}
		key := g.String()
		if points[key] == nil {
			labels[key], points[key] = g, map[int64]int64{}
		}
		points[key][pt.bucket] += v
	}
	var out []store.TimeSeries
	for key, g := range labels {
		ts := store.TimeSeries{Labels: g}
		for _, b := range slices.Sorted(maps.Keys(points[key])) {
			ts.Points = append(ts.Points, store.Point{Time: time.Unix(0, b).UTC(), Value: points[key][b]})
		}
		out = append(out, ts)
	}
	slices.SortFunc(out, func(a, b store.TimeSeries) int { return a.Labels.Compare(b.Labels) })
	return out
}
