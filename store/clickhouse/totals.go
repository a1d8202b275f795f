package clickhouse

import (
	"context"
	"fmt"
	"maps"
	"regexp"
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
	// The bucket of a time: store.BucketStart, for negative times too.
	step := int64(q.Step)
	bucket := fmt.Sprintf("time - ((time %% %d) + %d) %% %d", step, step, step)
	sums := map[point]int64{}
	sql := fmt.Sprintf("SELECT series, %s AS b, sum(totals[indexOf(types, %s)]) FROM profiles WHERE %s GROUP BY series, b", bucket, quote(q.Type.ID()), p.profiles())
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
		focused, err := st.focusedTotals(ctx, p, q.Focus, bucket)
		if err != nil {
			return nil, err
		}
		for pt := range sums {
			sums[pt] = focused[pt] // a bucket of picked profiles stays, at 0
		}
	}
	return group(sums, p.series, q.GroupBy), nil
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

// focusedTotals returns the sums of the samples of p's type whose stack
// matches re, by series and bucket (the SQL expression bucket). Whether a
// stack matches depends on the files of its profile's mappings too, which
// the samples' mapfiles column names.
func (st *Store) focusedTotals(ctx context.Context, p *pick, re *regexp.Regexp, bucket string) (map[point]int64, error) {
	filter := p.rows("time") + " AND type = " + quote(p.sel.Type.ID())
	type key struct{ mapfiles, stack uint64 }
	var keys []key
	stacks := map[store.Hash]bool{}
	lo, hi := p.hi, p.lo
	err := st.queryPicked(ctx, p, "listing stacks", "SELECT mapfiles, stack, min(time), max(time) FROM samples WHERE "+filter+" GROUP BY mapfiles, stack", func(r *rowReader) error {
		for r.more() {
			k := key{r.uint64(), r.uint64()}
			lo, hi = min(lo, r.int64()), max(hi, r.int64())
			keys = append(keys, k)
			stacks[store.Hash(k.stack)] = true
		}
		return nil
	})
	out := map[point]int64{}
	if err != nil || len(keys) == 0 {
		return out, err
	}
	orders, err := st.mappingOrders(ctx, p)
	if err != nil {
		return nil, err
	}
	mappings := map[store.Hash]bool{}
	for _, order := range orders {
		for _, h := range order {
			mappings[h] = true
		}
	}
	parts, err := st.parts(lo, hi).read(ctx, slices.Sorted(maps.Keys(stacks)), nil, slices.Sorted(maps.Keys(mappings)))
	if err != nil {
		return nil, err
	}
	files := mappingFilesOf(orders, parts.Mappings)
	m, err := newFrameMatcher(ctx, parts, re, slices.Sorted(maps.Keys(stacks)))
	if err != nil {
		return nil, err
	}
	var matching rowWriter
	for _, k := range keys {
		if m.matches(store.Hash(k.stack), files[k.mapfiles]) {
			matching.uint64(k.mapfiles)
			matching.uint64(k.stack)
			matching.endRow()
		}
	}
	if matching.rows == 0 {
		return out, nil
	}
	sql := fmt.Sprintf("SELECT series, %s AS b, sum(value) FROM samples WHERE %s AND (mapfiles, stack) IN matching GROUP BY series, b", bucket, filter)
	err = st.queryPicked(ctx, p, "adding up the focused samples", sql, func(r *rowReader) error {
		for r.more() {
			pt := point{r.uint64(), r.int64()}
			out[pt] = r.int64()
		}
		return nil
	}, external{name: "matching", structure: "mapfiles UInt64, stack UInt64", rows: &matching})
	return out, err
}

// mappingOrders returns, for each mapfiles hash of the profiles p
// picks, the mappings of one of those profiles, in its order.
func (st *Store) mappingOrders(ctx context.Context, p *pick) (map[uint64][]store.Hash, error) {
	orders := map[uint64][]store.Hash{}
	err := st.queryPicked(ctx, p, "listing mappings", "SELECT mapfiles, any(mappings) FROM profiles WHERE "+p.profiles()+" GROUP BY mapfiles", func(r *rowReader) error {
		for r.more() {
			mf := r.uint64()
			orders[mf] = r.hashes()
		}
		return nil
	})
	return orders, err
}

// mappingFilesOf returns, for each mapfiles hash, the file of each
// mapping key: that of the profile's first mapping of that key.
func mappingFilesOf(orders map[uint64][]store.Hash, parts map[store.Hash]store.Mapping) map[uint64]map[store.Hash]string {
	files := map[uint64]map[store.Hash]string{}
	for mf, order := range orders {
		byKey := map[store.Hash]string{}
		for _, h := range order {
			m := parts[h]
			if _, ok := byKey[m.Key()]; !ok {
				byKey[m.Key()] = m.File
			}
		}
		files[mf] = byKey
	}
	return files
}

// A frameMatcher tells which stacks have a frame that matches a Focus.
type frameMatcher struct {
	re        *regexp.Regexp
	stacks    map[store.Hash]store.Stack
	locations map[store.Hash]store.Location
	functions map[store.Hash]store.Function
	memo      map[frame]bool // the regular expression is the slow part
}

type frame struct {
	location store.Hash
	file     string
}

func newFrameMatcher(ctx context.Context, parts store.PartReader, re *regexp.Regexp, stacks []store.Hash) (*frameMatcher, error) {
	m := &frameMatcher{re: re, memo: map[frame]bool{}}
	var err error
	if m.stacks, err = parts.ReadStacks(ctx, stacks); err != nil {
		return nil, err
	}
	locs := map[store.Hash]bool{}
	for _, s := range m.stacks {
		for _, l := range s {
			locs[l] = true
		}
	}
	if m.locations, err = parts.ReadLocations(ctx, slices.Sorted(maps.Keys(locs))); err != nil {
		return nil, err
	}
	funcs := map[store.Hash]bool{}
	for _, l := range m.locations {
		for _, ln := range l.Lines {
			if ln.Function != 0 {
				funcs[ln.Function] = true
			}
		}
	}
	m.functions, err = parts.ReadFunctions(ctx, slices.Sorted(maps.Keys(funcs)))
	return m, err
}

// matches reports whether a location of stack matches, with files the
// files of the mappings of the stack's profile by key.
func (m *frameMatcher) matches(stack store.Hash, files map[store.Hash]string) bool {
	function := func(h store.Hash) store.Function { return m.functions[h] }
	for _, l := range m.stacks[stack] {
		loc := m.locations[l]
		f := frame{l, files[loc.Mapping]}
		match, ok := m.memo[f]
		if !ok {
			match = loc.MatchesFocus(m.re, function, f.file)
			m.memo[f] = match
		}
		if match {
			return true
		}
	}
	return false
}
