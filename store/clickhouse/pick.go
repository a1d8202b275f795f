package clickhouse

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// A pick is what a selection picks, as the SQL that finds it: the series
// whose labels match the selector (and whose __name__ is the type's),
// and the time range. Selectors are matched in Go, with Go's regular
// expressions, over the series of the range's days: the series table is
// small, and RE2 in ClickHouse differs from Go's regexp in details.
type pick struct {
	sel      store.Selection
	series   map[uint64]store.Labels
	services []string
	lo, hi   int64 // [lo, hi) in Unix nanoseconds
}

// nanos returns t in Unix nanoseconds, clamped to what an int64 holds;
// the zero Time is def.
func nanos(t time.Time, def int64) int64 {
	switch {
	case t.IsZero():
		return def
	case t.Before(time.Unix(0, math.MinInt64)):
		return math.MinInt64
	case t.After(time.Unix(0, math.MaxInt64)):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// pick finds the series sel may pick.
func (st *Store) pick(ctx context.Context, sel store.Selection) (*pick, error) {
	p := &pick{sel: sel, series: map[uint64]store.Labels{}, lo: nanos(sel.Start, math.MinInt64), hi: nanos(sel.End, math.MaxInt64)}
	if p.lo >= p.hi {
		return p, nil
	}
	conds := []string{fmt.Sprintf("day >= %d AND day <= %d", dayOf(p.lo), dayOf(p.hi-1))}
	name := ""
	if sel.Type != (store.ProfileType{}) {
		name = sel.Type.Name
		conds = append(conds, "name = "+quote(name))
	}
	for _, m := range sel.Selector {
		if m.Op == store.MatchEqual && (m.Name == store.LabelService || m.Name == store.LabelName) {
			conds = append(conds, map[string]string{store.LabelService: "service", store.LabelName: "name"}[m.Name]+" = "+quote(m.Value))
		}
	}
	sql := "SELECT series, any(label_names), any(label_values) FROM series WHERE " + strings.Join(conds, " AND ") + " GROUP BY series"
	services := map[string]bool{}
	err := st.c.query(ctx, anyShard, "finding the series of "+sel.Selector.String(), sql, func(r *rowReader) error {
		for r.more() {
			h, names, values := r.uint64(), r.strings(), r.strings()
			if len(names) != len(values) {
				return fmt.Errorf("series %x: %d label names, %d values", h, len(names), len(values))
			}
			labels := make(store.Labels, len(names))
			for i := range names {
				labels[i] = store.Label{Name: names[i], Value: values[i]}
			}
			if sel.Selector.Matches(labels) && (name == "" || labels.Get(store.LabelName) == name) {
				p.series[h] = labels
				services[labels.Get(store.LabelService)] = true
			}
		}
		return nil
	})
	for s := range services {
		p.services = append(p.services, s)
	}
	slices.Sort(p.services)
	return p, err
}

// empty reports whether p picks no series.
func (p *pick) empty() bool { return len(p.series) == 0 }

// profiles returns the SQL condition on the profiles table of the
// profiles p picks.
func (p *pick) profiles() string {
	cond := p.rows("time")
	if p.sel.Type != (store.ProfileType{}) {
		cond += " AND has(types, " + quote(p.sel.Type.ID()) + ")"
	}
	return cond
}

// rows returns the SQL condition on a table of rows by series and time
// (column timeColumn) of p's series and range; the series are in the
// external table picked.
func (p *pick) rows(timeColumn string) string { return p.between(timeColumn, p.lo, p.hi) }

// between is rows with the range [lo, hi).
func (p *pick) between(timeColumn string, lo, hi int64) string {
	return fmt.Sprintf("%s AND %s >= %d AND %s < %d", p.seriesCond(), timeColumn, lo, timeColumn, hi)
}

// seriesCond returns the SQL condition of p's series.
func (p *pick) seriesCond() string {
	return fmt.Sprintf("service IN (%s) AND series IN picked", quoteAll(p.services))
}

// queryPicked runs a query whose conditions name p's series as the
// external table picked, and maybe other external tables.
func (st *Store) queryPicked(ctx context.Context, p *pick, purpose, sql string, read func(*rowReader) error, more ...external) error {
	var rows rowWriter
	for _, h := range slices.Sorted(maps.Keys(p.series)) {
		rows.uint64(h)
		rows.endRow()
	}
	exts := append([]external{{name: "picked", structure: "series UInt64", rows: &rows}}, more...)
	return st.c.queryExternal(ctx, anyShard, purpose, sql, exts, read)
}

// pickedSeries returns the series of the profiles p picks, sorted by
// their labels.
func (st *Store) pickedSeries(ctx context.Context, p *pick) ([]store.Labels, error) {
	if p.empty() {
		return nil, nil
	}
	var out []store.Labels
	err := st.queryPicked(ctx, p, "listing series", "SELECT DISTINCT series FROM profiles WHERE "+p.profiles(), func(r *rowReader) error {
		for r.more() {
			if ls, ok := p.series[r.uint64()]; ok {
				out = append(out, ls)
			}
		}
		return nil
	})
	slices.SortFunc(out, store.Labels.Compare)
	return out, err
}
