package clickhouse

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// Merge returns the merge of the profiles sel picks. ClickHouse adds up
// their headers and their samples by stack, label set and type, reading
// whole days and hours from the rollups and the rest from the samples;
// only the sums and the parts they use come back, and store.Compose
// builds the profile from them.
//
// Its queries see the tables as they are when each runs: profiles
// written meanwhile may show in one and not in another, and their samples
// then name a mapping the merged header lacks. Such a merge is tried
// again, twice at most.
func (st *Store) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	if sel.Type == (store.ProfileType{}) {
		return nil, fmt.Errorf("merge of %s: no profile type: %w", sel.Selector, store.ErrInvalid)
	}
	for try := 0; ; try++ {
		p, err := st.merge(ctx, sel)
		if err == nil || !errors.Is(err, store.ErrMissingPart) || try == 2 {
			return p, err
		}
	}
}

func (st *Store) merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	p, err := st.pick(ctx, sel)
	if err != nil {
		return nil, err
	}
	if p.empty() {
		return nil, fmt.Errorf("%s %s: no profile in range: %w", sel.Type, sel.Selector, store.ErrNotFound)
	}
	// The samples of every type of the kind, by layout, are added up while
	// the headers are, which tell which layout or type the merge keeps.
	var rows []sampleRow
	var rowsErr error
	var wg sync.WaitGroup
	wg.Go(func() { rows, rowsErr = st.readSamples(ctx, p, sumSamples(p, typesOf(sel.Type.Name))) })
	h, err := st.mergedHeader(ctx, p)
	wg.Wait()
	if err = errors.Join(err, rowsErr); err != nil {
		return nil, err
	}
	if h.m.Profiles == 0 {
		return nil, fmt.Errorf("%s %s: no profile in range: %w", sel.Type, sel.Selector, store.ErrNotFound)
	}
	columns := h.types
	keep := func(r sampleRow) bool { return r.layout == h.layout }
	if h.m.Mixed {
		columns = []string{sel.Type.ID()}
		keep = func(r sampleRow) bool { return r.typ == columns[0] }
	}
	samples, err := toSamples(rows, columns, keep)
	if err != nil {
		return nil, err
	}
	return st.compose(ctx, &h.m, sel.Type, samples, h.minTime, h.maxTime)
}

// compose reads the parts that samples and m need, written on the days of
// [lo, hi], and builds the profile.
func (st *Store) compose(ctx context.Context, m *store.MergedHeader, t store.ProfileType, samples []store.Sample, lo, hi int64) (*profile.Profile, error) {
	stacks, labelSets := map[store.Hash]bool{}, map[store.Hash]bool{}
	for _, s := range samples {
		stacks[s.Stack] = true
		if s.Labels != 0 {
			labelSets[s.Labels] = true
		}
	}
	mappings := make([]store.Hash, len(m.Mappings))
	for i, u := range m.Mappings {
		mappings[i] = u.Hash
	}
	parts, err := st.parts(lo, hi).read(ctx, slices.Sorted(maps.Keys(stacks)), slices.Sorted(maps.Keys(labelSets)), mappings)
	if err != nil {
		return nil, err
	}
	return store.Compose(ctx, m, t, samples, parts)
}

// A header is the merged header of picked profiles, and what else the
// query that adds it up tells.
type header struct {
	m                store.MergedHeader
	layout           uint64   // the profiles' layout, when not m.Mixed
	types            []string // the layout's profile type IDs
	minTime, maxTime int64
}

// mergedHeader adds up the headers of the profiles p picks as
// store.MergedHeader.Add does, in ClickHouse: "the first profile" is the
// one of the least (time, profile), the Order of the canonical form, as
// profile IDs are the hexadecimal digits of the profile column.
func (st *Store) mergedHeader(ctx context.Context, p *pick) (*header, error) {
	const first = "(time, profile)"
	sql := "SELECT count(), uniqExact(layout), any(layout), any(types), any(sample_types), any(sample_units), any(period_type), any(period_unit), max(period), " +
		"minIf(time_nanos, time_nanos != 0), sum(duration_nanos), argMin(drop_frames, " + first + "), argMin(keep_frames, " + first + "), " +
		"argMinIf(doc_url, " + first + ", doc_url != ''), argMinIf(default_sample_type, " + first + ", default_sample_type != ''), " +
		"argMinIf(mappings[1], " + first + ", notEmpty(mappings)), countIf(notEmpty(mappings)), min(time), max(time) " +
		"FROM profiles WHERE " + p.profiles()
	h := &header{}
	var uses error
	var wg sync.WaitGroup
	wg.Go(func() { h.m.Mappings, h.m.Comments, uses = st.mergedUses(ctx, p) })
	err := st.queryPicked(ctx, p, "adding up the profiles' headers", sql, func(r *rowReader) error {
		for r.more() {
			m := &h.m
			m.Profiles = int64(r.uint64())
			m.Mixed = r.uint64() > 1
			h.layout, h.types = r.uint64(), r.strings()
			types, units := r.strings(), r.strings()
			m.PeriodType = store.ValueType{Type: r.string(), Unit: r.string()}
			m.Period, m.TimeNanos, m.DurationNanos = r.int64(), r.int64(), r.int64()
			m.DropFrames = store.First{Value: r.string(), Valid: true}
			m.KeepFrames = store.First{Value: r.string(), Valid: true}
			m.DocURL = valid(r.string())
			m.DefaultType = valid(r.string())
			main, withMappings := r.uint64(), r.uint64()
			m.Main = store.First{Value: store.Hash(main).String(), Valid: withMappings > 0}
			h.minTime, h.maxTime = r.int64(), r.int64()
			if !m.Mixed {
				for i := range types {
					m.SampleTypes = append(m.SampleTypes, store.ValueType{Type: types[i], Unit: units[i]})
				}
			}
		}
		return nil
	})
	wg.Wait()
	return h, errors.Join(err, uses)
}

// valid returns the First of a value taken from the first profile where
// it is not empty.
func valid(v string) store.First { return store.First{Value: v, Valid: v != ""} }

// mergedUses returns the mappings and comments of the profiles p picks,
// each once with the Order of the first profile that has it: mappings
// sorted by hash, comments in that order, then by text.
func (st *Store) mergedUses(ctx context.Context, p *pick) ([]store.MappingUse, []store.Comment, error) {
	var mappings []store.MappingUse
	var comments []store.Comment
	sql := "SELECT 1, '', m, min((time, profile)) FROM profiles ARRAY JOIN mappings AS m WHERE " + p.profiles() + " GROUP BY m " +
		"UNION ALL SELECT 2, c, toUInt64(0), min((time, profile)) FROM profiles ARRAY JOIN comments AS c WHERE " + p.profiles() + " GROUP BY c"
	err := st.queryPicked(ctx, p, "listing the profiles' mappings and comments", sql, func(r *rowReader) error {
		for r.more() {
			kind, text, h, t, id := r.uint8(), r.string(), r.uint64(), r.int64(), r.uint64()
			at := store.Order{Time: t, ID: store.Hash(id).String()}
			if kind == 1 {
				mappings = append(mappings, store.MappingUse{Hash: store.Hash(h), At: at})
			} else {
				comments = append(comments, store.Comment{Text: text, At: at})
			}
		}
		return nil
	})
	slices.SortFunc(mappings, func(a, b store.MappingUse) int { return cmp.Compare(a.Hash, b.Hash) })
	slices.SortFunc(comments, func(a, b store.Comment) int {
		return cmp.Or(cmp.Compare(a.At.Time, b.At.Time), strings.Compare(a.At.ID, b.At.ID), strings.Compare(a.Text, b.Text))
	})
	return mappings, comments, err
}

// A sampleRow is a sum of sample values of one layout, stack, label set
// and type.
type sampleRow struct {
	layout, stack, labels uint64
	typ                   string
	value                 int64
}

// readSamples reads the rows of sql, a query of layout, stack, label set,
// type and value.
func (st *Store) readSamples(ctx context.Context, p *pick, sql string) ([]sampleRow, error) {
	var rows []sampleRow
	err := st.queryPicked(ctx, p, "adding up the samples", sql, func(r *rowReader) error {
		for r.more() {
			rows = append(rows, sampleRow{layout: r.uint64(), stack: r.uint64(), labels: r.uint64(), typ: r.string(), value: r.int64()})
		}
		return nil
	})
	return rows, err
}

// toSamples returns the rows that keep accepts as samples, the values of
// a stack and label set in the order of columns, a list of type IDs.
func toSamples(rows []sampleRow, columns []string, keep func(sampleRow) bool) ([]store.Sample, error) {
	type key struct{ stack, labels uint64 }
	index := map[key]int{}
	var samples []store.Sample
	for _, r := range rows {
		if !keep(r) {
			continue
		}
		col := slices.Index(columns, r.typ)
		if col < 0 {
			return nil, fmt.Errorf("a sample of type %q, not among %v", r.typ, columns)
		}
		k := key{r.stack, r.labels}
		i, ok := index[k]
		if !ok {
			i = len(samples)
			index[k] = i
			samples = append(samples, store.Sample{Stack: store.Hash(r.stack), Labels: store.Hash(r.labels), Values: make([]int64, len(columns))})
		}
		samples[i].Values[col] += r.value
	}
	return samples, nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}

// Profile returns the stored profile id names, composed alone with its
// own sample types. Of several writes of one profile (the same ID), it
// reads one.
func (st *Store) Profile(ctx context.Context, id string) (*profile.Profile, error) {
	h, err := store.ParseHash(id)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", id, store.ErrNotFound)
	}
	var one *storedProfile
	err = st.c.query(ctx, anyShard, "finding profile "+id, "SELECT "+profileColumns+fmt.Sprintf(" FROM profiles WHERE profile = %d ORDER BY insert_id LIMIT 1", uint64(h)), func(r *rowReader) error {
		for r.more() {
			one = readProfile(r)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if one == nil {
		return nil, fmt.Errorf("profile %q: %w", id, store.ErrNotFound)
	}
	m := store.MergeHeader(&one.header, store.OrderOf(time.Unix(0, one.time), id))
	p := &pick{series: map[uint64]store.Labels{one.series: nil}, services: []string{one.service}, lo: one.time, hi: one.time + 1}
	sql := fmt.Sprintf("SELECT layout, stack, labels, type, sum(value) FROM samples WHERE %s AND profile = %d AND insert_id = %d GROUP BY layout, stack, labels, type", p.rows("time"), uint64(h), one.insertID)
	rows, err := st.readSamples(ctx, p, sql)
	if err != nil {
		return nil, err
	}
	samples, err := toSamples(rows, one.types, func(sampleRow) bool { return true })
	if err != nil {
		return nil, err
	}
	return st.compose(ctx, &m, store.ProfileType{}, samples, one.time, one.time)
}

// A storedProfile is a row of the profiles table.
type storedProfile struct {
	service  string
	series   uint64
	time     int64
	insertID uint64
	types    []string
	header   store.Header
}

// profileColumns are the columns readProfile reads.
const profileColumns = "service, series, time, insert_id, types, sample_types, sample_units, default_sample_type, period_type, period_unit, period, " +
	"time_nanos, duration_nanos, comments, drop_frames, keep_frames, doc_url, mappings"

func readProfile(r *rowReader) *storedProfile {
	p := &storedProfile{service: r.string(), series: r.uint64(), time: r.int64(), insertID: r.uint64(), types: r.strings()}
	h := &p.header
	types, units := r.strings(), r.strings()
	for i := range min(len(types), len(units)) {
		h.SampleTypes = append(h.SampleTypes, store.ValueType{Type: types[i], Unit: units[i]})
	}
	h.DefaultSampleType = r.string()
	h.PeriodType = store.ValueType{Type: r.string(), Unit: r.string()}
	h.Period, h.TimeNanos, h.DurationNanos = r.int64(), r.int64(), r.int64()
	h.Comments = r.strings()
	h.DropFrames, h.KeepFrames, h.DocURL = r.string(), r.string(), r.string()
	h.Mappings = r.hashes()
	return p
}
