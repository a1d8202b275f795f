package clickhouse

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/perflab/perflab/store"
)

// Write stores ps, all or none: it returns nil once ClickHouse has
// acknowledged every row of them (see the package documentation). It
// returns an error wrapping store.ErrLimit when a profile or its series
// breaks the store's limits, store.ErrInvalid when a profile is missing,
// invalid or has no time, and store.ErrBusy when the rows waiting for
// ClickHouse would be over the memory budget, or when ClickHouse fails
// until ctx ends. A Write whose ctx ends while its rows are being written
// returns an error, yet its profiles may be stored.
func (st *Store) Write(ctx context.Context, ps ...store.Profile) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	prepared := make([]*prepared, len(ps))
	for i, p := range ps {
		pp, err := st.prepare(p)
		if err != nil {
			return fmt.Errorf("profile %d of %d: %w", i+1, len(ps), err)
		}
		prepared[i] = pp
	}
	if err := st.reserveSeries(prepared); err != nil {
		return err
	}
	return st.w.submit(ctx, encode(rand.Uint64(), prepared, st.cache.has))
}

// prepare checks and splits p, as every store does (see store.Prepare).
func (st *Store) prepare(p store.Profile) (*prepared, error) {
	x, err := store.Prepare(p, st.limits)
	if err != nil {
		return nil, err
	}
	return newPrepared(x.Labels, x.Time, x.Split)
}

// reserveSeries counts the series of ps among those the store knows, or
// refuses them all when that would be more than MaxSeries.
func (st *Store) reserveSeries(ps []*prepared) error {
	st.seriesMu.Lock()
	defer st.seriesMu.Unlock()
	var fresh []uint64
	for _, p := range ps {
		if !st.known[p.series] && !slices.Contains(fresh, p.series) {
			fresh = append(fresh, p.series)
			if len(st.known)+len(fresh) > st.limits.MaxSeries {
				return fmt.Errorf("series %s: more than the limit of %d series: %w", p.labels, st.limits.MaxSeries, store.ErrLimit)
			}
		}
	}
	for _, s := range fresh {
		st.known[s] = true
	}
	return nil
}

// loadSeries reads the series the store holds profiles of.
func (st *Store) loadSeries(ctx context.Context) error {
	known := map[uint64]bool{}
	err := st.c.query(ctx, anyShard, "reading the series", "SELECT DISTINCT series FROM profiles", func(r *rowReader) error {
		for r.more() {
			known[r.uint64()] = true
		}
		return nil
	})
	if err != nil {
		return err
	}
	st.seriesMu.Lock()
	st.known = known
	st.seriesMu.Unlock()
	return nil
}
