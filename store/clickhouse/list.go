package clickhouse

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// ProfileTypes lists the types of the profiles sel picks (sel.Type is
// ignored), sorted by ID.
func (st *Store) ProfileTypes(ctx context.Context, sel store.Selection) ([]store.ProfileType, error) {
	sel.Type = store.ProfileType{}
	p, err := st.pick(ctx, sel)
	if err != nil || p.empty() {
		return nil, err
	}
	var types []store.ProfileType
	sql := "SELECT DISTINCT name, sample_types, sample_units, period_type, period_unit FROM profiles WHERE " + p.profiles()
	err = st.queryPicked(ctx, p, "listing profile types", sql, func(r *rowReader) error {
		for r.more() {
			name, sts, units := r.string(), r.strings(), r.strings()
			h := store.Header{PeriodType: store.ValueType{Type: r.string(), Unit: r.string()}}
			for i := range min(len(sts), len(units)) {
				h.SampleTypes = append(h.SampleTypes, store.ValueType{Type: sts[i], Unit: units[i]})
			}
			for _, t := range h.Types(name) {
				if !slices.Contains(types, t) {
					types = append(types, t)
				}
			}
		}
		return nil
	})
	slices.SortFunc(types, func(a, b store.ProfileType) int { return strings.Compare(a.ID(), b.ID()) })
	return types, err
}

// LabelNames lists the label names of the series sel picks, sorted.
func (st *Store) LabelNames(ctx context.Context, sel store.Selection) ([]string, error) {
	series, err := st.Series(ctx, sel)
	var names []string
	for _, ls := range series {
		for _, l := range ls {
			names = append(names, l.Name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), err
}

// LabelValues lists the values of label name in the series sel picks,
// sorted, without "".
func (st *Store) LabelValues(ctx context.Context, sel store.Selection, name string) ([]string, error) {
	series, err := st.Series(ctx, sel)
	var values []string
	for _, ls := range series {
		if v := ls.Get(name); v != "" {
			values = append(values, v)
		}
	}
	slices.Sort(values)
	return slices.Compact(values), err
}

// Series lists the series sel picks, sorted by their labels.
func (st *Store) Series(ctx context.Context, sel store.Selection) ([]store.Labels, error) {
	p, err := st.pick(ctx, sel)
	if err != nil {
		return nil, err
	}
	return st.pickedSeries(ctx, p)
}

// Profiles lists the profiles sel picks, latest first (then by ID), at
// most limit of them (0 means no limit).
func (st *Store) Profiles(ctx context.Context, sel store.Selection, limit int) ([]store.ProfileInfo, error) {
	p, err := st.pick(ctx, sel)
	if err != nil || p.empty() {
		return nil, err
	}
	total := "toInt64(0)"
	if sel.Type != (store.ProfileType{}) {
		total = "totals[indexOf(types, " + quote(sel.Type.ID()) + ")]"
	}
	sql := "SELECT series, time, profile, duration_nanos, " + total + " FROM profiles WHERE " + p.profiles() + " ORDER BY time DESC, profile"
	if limit > 0 {
		sql += fmt.Sprintf(" LIMIT %d", limit)
	}
	var infos []store.ProfileInfo
	err = st.queryPicked(ctx, p, "listing profiles", sql, func(r *rowReader) error {
		for r.more() {
			series, t, id, d, v := r.uint64(), r.int64(), r.uint64(), r.int64(), r.int64()
			infos = append(infos, store.ProfileInfo{
				ID: store.Hash(id).String(), Labels: p.series[series], Time: time.Unix(0, t).UTC(),
				Duration: time.Duration(d), Total: v,
			})
		}
		return nil
	})
	return infos, err
}

// Stats describes what the store holds; Bytes is the compressed size of
// its tables on ClickHouse's disks, all shards together.
func (st *Store) Stats(ctx context.Context) (store.Stats, error) {
	var s store.Stats
	sql := "SELECT count(), uniqExact(series), min(time), max(time) FROM profiles"
	err := st.c.query(ctx, anyShard, "counting profiles", sql, func(r *rowReader) error {
		for r.more() {
			n, series, lo, hi := r.uint64(), r.uint64(), r.int64(), r.int64()
			s.Profiles, s.Series = int64(n), int(series)
			if n > 0 {
				s.Oldest, s.Newest = time.Unix(0, lo).UTC(), time.Unix(0, hi).UTC()
			}
		}
		return nil
	})
	if err != nil {
		return s, err
	}
	for shard := range st.cfg.Shards {
		err := st.c.query(ctx, shard, "measuring the tables", "SELECT sum(bytes_on_disk) FROM system.parts WHERE database = currentDatabase() AND active AND table != 'schema_version'", func(r *rowReader) error {
			for r.more() {
				s.Bytes += int64(r.uint64())
			}
			return nil
		})
		if err != nil {
			return s, err
		}
	}
	return s, nil
}

// DropBefore drops, on every shard, the days of every table that end at
// or before t: what it keeps begins at t's day, in UTC.
func (st *Store) DropBefore(ctx context.Context, t time.Time) error {
	cut := dayOf(nanos(t, 0))
	sc := schema{db: st.cfg.Database, cluster: st.cfg.Cluster}
	for shard := range st.cfg.Shards {
		type part struct{ table, partition string }
		var parts []part
		err := st.c.query(ctx, shard, "listing partitions", "SELECT DISTINCT table, partition FROM system.parts WHERE database = currentDatabase() AND active AND table != 'schema_version'", func(r *rowReader) error {
			for r.more() {
				parts = append(parts, part{r.string(), r.string()})
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, pt := range parts {
			var day int64
			if _, err := fmt.Sscan(pt.partition, &day); err != nil || day >= int64(cut) {
				continue
			}
			if err := st.c.exec(ctx, shard, "dropping old days", fmt.Sprintf("ALTER TABLE %s.%s DROP PARTITION %d", sc.db, pt.table, day)); err != nil {
				return err
			}
		}
	}
	st.cache.forget()
	return st.loadSeries(ctx)
}
