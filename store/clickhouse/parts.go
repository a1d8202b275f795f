package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/perflab/perflab/store"
)

// parts returns the reader of the parts written on the days of [lo, hi]
// (Unix nanoseconds): the parts of the profiles of that range were
// written on those days.
func (st *Store) parts(lo, hi int64) partReader {
	return partReader{st: st, lo: dayOf(lo), hi: dayOf(hi)}
}

// read returns the parts that samples of stacks and label sets need, with
// mappings (see store.Compose), from the store's cache and, for what it
// lacks, from ClickHouse: the stacks, label sets and mappings by hash, and
// at the same time the locations and functions of the stacks it lacks,
// found by subqueries; then the locations and functions still missing,
// by hash. What it reads joins the cache.
func (r partReader) read(ctx context.Context, stacks, labelSets, mappings []store.Hash) (*store.Parts, error) {
	c := &r.st.partsCache
	ps := store.NewParts()
	lackStacks := missing(c, func(p *store.Parts) map[store.Hash]store.Stack { return p.Stacks }, stacks, ps.Stacks)
	lackLabels := missing(c, func(p *store.Parts) map[store.Hash]store.LabelSet { return p.LabelSets }, labelSets, ps.LabelSets)
	lackMappings := missing(c, func(p *store.Parts) map[store.Hash]store.Mapping { return p.Mappings }, mappings, ps.Mappings)
	read := store.NewParts()
	days := fmt.Sprintf("day >= %d AND day <= %d", r.lo, r.hi)
	ofStacks := "SELECT arrayJoin(locations) FROM stacks WHERE " + days + " AND hash IN ids"
	ofLocations := "SELECT arrayJoin(line_functions) FROM locations WHERE " + days + " AND hash GLOBAL IN (" + ofStacks + ")"
	var errs [5]error
	var wg sync.WaitGroup
	wg.Go(func() { read.Stacks, errs[0] = r.ReadStacks(ctx, lackStacks) })
	wg.Go(func() { read.Locations, errs[1] = r.readLocations(ctx, "hash GLOBAL IN ("+ofStacks+")", lackStacks) })
	wg.Go(func() { read.Functions, errs[2] = r.readFunctions(ctx, "hash GLOBAL IN ("+ofLocations+")", lackStacks) })
	wg.Go(func() { read.Mappings, errs[3] = r.ReadMappings(ctx, lackMappings) })
	wg.Go(func() { read.LabelSets, errs[4] = r.ReadLabelSets(ctx, lackLabels) })
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	ps.Add(read)
	// The locations of the stacks found in the cache, and the functions
	// of the locations, that the cache has forgotten.
	locs := map[store.Hash]bool{}
	for _, s := range ps.Stacks {
		for _, l := range s {
			locs[l] = true
		}
	}
	lackLocs := missingFrom(c, ps.Locations, locs, func(p *store.Parts) map[store.Hash]store.Location { return p.Locations })
	more, err := r.ReadLocations(ctx, lackLocs)
	if err != nil {
		return nil, err
	}
	maps.Copy(ps.Locations, more)
	maps.Copy(read.Locations, more)
	funcs := map[store.Hash]bool{}
	for _, l := range ps.Locations {
		for _, ln := range l.Lines {
			if ln.Function != 0 {
				funcs[ln.Function] = true
			}
		}
	}
	lackFuncs := missingFrom(c, ps.Functions, funcs, func(p *store.Parts) map[store.Hash]store.Function { return p.Functions })
	moreFuncs, err := r.ReadFunctions(ctx, lackFuncs)
	if err != nil {
		return nil, err
	}
	maps.Copy(ps.Functions, moreFuncs)
	maps.Copy(read.Functions, moreFuncs)
	c.add(read)
	return ps, nil
}

// missingFrom returns those of the hashes of want that neither have nor
// the cache holds, adding those the cache holds to have.
func missingFrom[T any](c *partsCache, have map[store.Hash]T, want map[store.Hash]bool, kind func(*store.Parts) map[store.Hash]T) []store.Hash {
	var lack []store.Hash
	for _, h := range slices.Sorted(maps.Keys(want)) {
		if _, ok := have[h]; !ok {
			lack = append(lack, h)
		}
	}
	return missing(c, kind, lack, have)
}

// partReader reads parts by hash from the tables of parts, sending the
// hashes as the external table ids; a part's copies are alike, so any of
// them will do.
type partReader struct {
	st     *Store
	lo, hi int32
}

var _ store.PartReader = partReader{}

// readParts reads the parts of table with columns, one a row after the
// hash, and checks that every hash was found.
func readParts[T any](ctx context.Context, r partReader, kind, table, columns string, hashes []store.Hash, read func(*rowReader) T) (map[store.Hash]T, error) {
	out, err := readPartsWhere(ctx, r, table, columns, "hash IN ids", hashes, read)
	if err != nil {
		return nil, err
	}
	for _, h := range hashes {
		if _, ok := out[h]; !ok {
			return nil, fmt.Errorf("%s %s: %w", kind, h, store.ErrMissingPart)
		}
	}
	return out, nil
}

// readPartsWhere reads the parts of table that match the SQL condition
// where, which may name ids, the external table of hashes.
func readPartsWhere[T any](ctx context.Context, r partReader, table, columns, where string, hashes []store.Hash, read func(*rowReader) T) (map[store.Hash]T, error) {
	out := make(map[store.Hash]T, len(hashes))
	if len(hashes) == 0 {
		return out, nil
	}
	var ids rowWriter
	for _, h := range hashes {
		ids.uint64(uint64(h))
		ids.endRow()
	}
	sql := fmt.Sprintf("SELECT hash, %s FROM %s WHERE day >= %d AND day <= %d AND %s GROUP BY hash", columns, table, r.lo, r.hi, where)
	err := r.st.c.queryExternal(ctx, anyShard, "reading "+table, sql, []external{{name: "ids", structure: "hash UInt64", rows: &ids}}, func(rr *rowReader) error {
		for rr.more() {
			h := store.Hash(rr.uint64())
			out[h] = read(rr)
		}
		return nil
	})
	return out, err
}

// ReadStacks returns the stacks of hashes.
func (r partReader) ReadStacks(ctx context.Context, hashes []store.Hash) (map[store.Hash]store.Stack, error) {
	return readParts(ctx, r, "stack", "stacks", "any(locations)", hashes, func(rr *rowReader) store.Stack {
		return store.Stack(rr.hashes())
	})
}

// ReadLocations returns the locations of hashes.
func (r partReader) ReadLocations(ctx context.Context, hashes []store.Hash) (map[store.Hash]store.Location, error) {
	return readParts(ctx, r, "location", "locations", locationColumns, hashes, readLocation)
}

// readLocations reads the locations that match where.
func (r partReader) readLocations(ctx context.Context, where string, ids []store.Hash) (map[store.Hash]store.Location, error) {
	return readPartsWhere(ctx, r, "locations", locationColumns, where, ids, readLocation)
}

const locationColumns = "any(mapping), any(address), any(is_folded), any(line_functions), any(line_numbers), any(line_columns)"

func readLocation(rr *rowReader) store.Location {
	l := store.Location{Mapping: store.Hash(rr.uint64()), Address: rr.uint64(), IsFolded: rr.bool()}
	functions, lines, columns := rr.hashes(), rr.int64s(), rr.int64s()
	if len(functions) != len(lines) || len(lines) != len(columns) {
		rr.fail(fmt.Errorf("a location of %d functions, %d lines and %d columns", len(functions), len(lines), len(columns)))
		return l
	}
	l.Lines = make([]store.Line, len(functions))
	for i := range functions {
		l.Lines[i] = store.Line{Function: functions[i], Line: lines[i], Column: columns[i]}
	}
	return l
}

// ReadFunctions returns the functions of hashes.
func (r partReader) ReadFunctions(ctx context.Context, hashes []store.Hash) (map[store.Hash]store.Function, error) {
	return readParts(ctx, r, "function", "functions", functionColumns, hashes, readFunction)
}

// readFunctions reads the functions that match where.
func (r partReader) readFunctions(ctx context.Context, where string, ids []store.Hash) (map[store.Hash]store.Function, error) {
	return readPartsWhere(ctx, r, "functions", functionColumns, where, ids, readFunction)
}

const functionColumns = "any(name), any(system_name), any(filename), any(start_line)"

func readFunction(rr *rowReader) store.Function {
	return store.Function{Name: rr.string(), SystemName: rr.string(), Filename: rr.string(), StartLine: rr.int64()}
}

// ReadMappings returns the mappings of hashes.
func (r partReader) ReadMappings(ctx context.Context, hashes []store.Hash) (map[store.Hash]store.Mapping, error) {
	const columns = "any(memory_start), any(memory_limit), any(file_offset), any(filename), any(build_id), any(kernel_relocation_symbol), " +
		"any(has_functions), any(has_filenames), any(has_line_numbers), any(has_inline_frames)"
	return readParts(ctx, r, "mapping", "mappings", columns, hashes, func(rr *rowReader) store.Mapping {
		return store.Mapping{
			Start: rr.uint64(), Limit: rr.uint64(), Offset: rr.uint64(),
			File: rr.string(), BuildID: rr.string(), KernelRelocationSymbol: rr.string(),
			HasFunctions: rr.bool(), HasFilenames: rr.bool(), HasLineNumbers: rr.bool(), HasInlineFrames: rr.bool(),
		}
	})
}

// ReadLabelSets returns the label sets of hashes.
func (r partReader) ReadLabelSets(ctx context.Context, hashes []store.Hash) (map[store.Hash]store.LabelSet, error) {
	const columns = "any(str_keys), any(str_values), any(num_keys), any(num_values), any(num_units)"
	return readParts(ctx, r, "label set", "label_sets", columns, hashes, func(rr *rowReader) store.LabelSet {
		var ls store.LabelSet
		keys := rr.strings()
		values := make([][]string, rr.arrayLen(16))
		for i := range values {
			values[i] = rr.strings()
		}
		numKeys := rr.strings()
		numValues := make([][]int64, rr.arrayLen(16))
		for i := range numValues {
			numValues[i] = rr.int64s()
		}
		units := make([][]string, rr.arrayLen(16))
		for i := range units {
			units[i] = rr.strings()
		}
		if len(keys) != len(values) || len(numKeys) != len(numValues) || len(numKeys) != len(units) {
			rr.fail(fmt.Errorf("a label set of %d keys and %d values, %d numeric keys, %d values and %d units", len(keys), len(values), len(numKeys), len(numValues), len(units)))
			return ls
		}
		for i, k := range keys {
			ls.Strings = append(ls.Strings, store.StringLabel{Key: k, Values: values[i]})
		}
		for i, k := range numKeys {
			ls.Numbers = append(ls.Numbers, store.NumberLabel{Key: k, Values: numValues[i], Units: units[i]})
		}
		return ls
	})
}
