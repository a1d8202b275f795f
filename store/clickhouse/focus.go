package clickhouse

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/perflab/perflab/store"
)

// focusedTotals returns the sums of the samples of p's type whose stack
// matches re, by series and bucket of step. Whether a stack matches may
// depend on its profile: a frame matches by the file of the profile's own
// mapping too. When the file of each mapping key matches re in every
// profile of the range or in none, the stack decides alone, and the sums
// are read from the rollups where the step holds their buckets whole, and
// from the samples for the rest; otherwise every sample is read, with the
// files of its profile's mappings (its mapfiles).
func (st *Store) focusedTotals(ctx context.Context, p *pick, re *regexp.Regexp, step int64) (map[point]int64, error) {
	orders, lo, hi, err := st.mappingOrders(ctx, p)
	if err != nil || len(orders) == 0 {
		return map[point]int64{}, err
	}
	mappings := map[store.Hash]bool{}
	for _, order := range orders {
		for _, h := range order {
			mappings[h] = true
		}
	}
	parts, err := st.parts(lo, hi).read(ctx, nil, nil, slices.Sorted(maps.Keys(mappings)))
	if err != nil {
		return nil, err
	}
	files := mappingFilesOf(orders, parts.Mappings)
	if one, ok := sameMatch(files, re); ok {
		return st.focusedByStack(ctx, p, re, step, one, lo, hi)
	}
	return st.focusedBySample(ctx, p, re, step, files, lo, hi)
}

// sameMatch reports whether the file of each mapping key matches re in
// all of files (the files of the mappings by key of each mapfiles hash)
// that have the key or in none (a profile's stacks name only its own
// mappings); if so, it returns the files of every key, with which every
// stack matches as it does in each of its profiles.
func sameMatch(files map[uint64]map[store.Hash]string, re *regexp.Regexp) (map[store.Hash]string, bool) {
	all := map[store.Hash]string{}
	matched := map[store.Hash]bool{}
	for _, byKey := range files {
		for k, file := range byKey {
			m := re.MatchString(file)
			if prev, ok := matched[k]; ok && prev != m {
				return nil, false
			}
			matched[k], all[k] = m, file
		}
	}
	return all, true
}

// focusedByStack is focusedTotals when a stack matches re whatever its
// profile, with files the files of the mappings by key: it lists the
// range's distinct stacks and adds up those that match, each from the
// widest rollup whose buckets the step holds whole.
func (st *Store) focusedByStack(ctx context.Context, p *pick, re *regexp.Regexp, step int64, files map[store.Hash]string, lo, hi int64) (map[point]int64, error) {
	ss := spansOf(p.lo, p.hi, rollupsWithin(step))
	typ := "type = " + quote(p.sel.Type.ID())
	var stacks []store.Hash
	sql := "SELECT DISTINCT stack FROM (" + perTable(ss, func(table, cond string) string {
		return fmt.Sprintf("SELECT DISTINCT stack FROM %s WHERE %s AND %s AND (%s)", table, p.seriesCond(), typ, cond)
	}) + ")"
	err := st.queryPicked(ctx, p, "listing stacks", sql, func(r *rowReader) error {
		for r.more() {
			stacks = append(stacks, store.Hash(r.uint64()))
		}
		return nil
	})
	out := map[point]int64{}
	if err != nil || len(stacks) == 0 {
		return out, err
	}
	slices.Sort(stacks)
	parts, err := st.parts(lo, hi).read(ctx, stacks, nil, nil)
	if err != nil {
		return nil, err
	}
	m, err := newFrameMatcher(ctx, parts, re, stacks)
	if err != nil {
		return nil, err
	}
	var matching rowWriter
	for _, s := range stacks {
		if m.matches(s, files) {
			matching.uint64(uint64(s))
			matching.endRow()
		}
	}
	if matching.rows == 0 {
		return out, nil
	}
	sql = "SELECT series, b, sum(v) FROM (" + perTable(ss, func(table, cond string) string {
		column := map[bool]string{true: "time", false: "bucket"}[table == "samples"]
		return fmt.Sprintf("SELECT series, %s AS b, sum(value) AS v FROM %s WHERE %s AND %s AND stack IN matching AND (%s) GROUP BY series, b",
			bucketOf(column, step), table, p.seriesCond(), typ, cond)
	}) + ") GROUP BY series, b"
	err = st.queryPicked(ctx, p, "adding up the focused samples", sql, func(r *rowReader) error {
		for r.more() {
			pt := point{r.uint64(), r.int64()}
			out[pt] = r.int64()
		}
		return nil
	}, external{name: "matching", structure: "stack UInt64", rows: &matching})
	return out, err
}

// focusedBySample is focusedTotals when whether a stack matches depends
// on its profile's mappings' files: it lists the range's distinct pairs
// of mapfiles and stack in the samples, and adds up the samples of those
// that match, with files the files of the mappings by key of each
// mapfiles.
func (st *Store) focusedBySample(ctx context.Context, p *pick, re *regexp.Regexp, step int64, files map[uint64]map[store.Hash]string, lo, hi int64) (map[point]int64, error) {
	filter := p.rows("time") + " AND type = " + quote(p.sel.Type.ID())
	type key struct{ mapfiles, stack uint64 }
	var keys []key
	stacks := map[store.Hash]bool{}
	err := st.queryPicked(ctx, p, "listing stacks", "SELECT mapfiles, stack FROM samples WHERE "+filter+" GROUP BY mapfiles, stack", func(r *rowReader) error {
		for r.more() {
			k := key{r.uint64(), r.uint64()}
			keys = append(keys, k)
			stacks[store.Hash(k.stack)] = true
		}
		return nil
	})
	out := map[point]int64{}
	if err != nil || len(keys) == 0 {
		return out, err
	}
	parts, err := st.parts(lo, hi).read(ctx, slices.Sorted(maps.Keys(stacks)), nil, nil)
	if err != nil {
		return nil, err
	}
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
	sql := fmt.Sprintf("SELECT series, %s AS b, sum(value) FROM samples WHERE %s AND (mapfiles, stack) IN matching GROUP BY series, b", bucketOf("time", step), filter)
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
// picks, the mappings of one of those profiles, in its order, and the
// times of the first and last of the profiles.
func (st *Store) mappingOrders(ctx context.Context, p *pick) (map[uint64][]store.Hash, int64, int64, error) {
	orders := map[uint64][]store.Hash{}
	lo, hi := p.hi, p.lo
	err := st.queryPicked(ctx, p, "listing mappings", "SELECT mapfiles, any(mappings), min(time), max(time) FROM profiles WHERE "+p.profiles()+" GROUP BY mapfiles", func(r *rowReader) error {
		for r.more() {
			mf := r.uint64()
			orders[mf] = r.hashes()
			lo, hi = min(lo, r.int64()), max(hi, r.int64())
		}
		return nil
	})
	return orders, lo, hi, err
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
