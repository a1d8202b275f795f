package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/pprof/profile"
)

// ErrMissingPart is wrapped by Compose's errors when a PartReader lacks a
// part that a sample or header refers to: the store lost it.
var ErrMissingPart = errors.New("part missing")

// Compose builds the merge of the profiles whose merged header is m from
// their aggregated samples and the parts they refer to, read from parts.
// The values of samples are in the layout of m.Columns(t); samples of the
// same stack and label set are added up, and those whose values are all
// zero are dropped, as profile.Merge does. t is the selection's type and
// becomes the default sample type; a zero t (one stored profile, as
// Reader.Profile returns it) keeps the profiles' own.
//
// The profile depends only on m, the sum of samples and the parts, never
// on the order of samples or of the stored profiles: samples are sorted by
// stack then label set hash, locations and functions numbered in the
// order the samples first use them, and mappings put the main binary
// first, then the others by Start. Of the mapping parts of m with the same
// Key (one binary loaded at different addresses), the first profile's
// stands for all (see MappingUse), and locations get their addresses
// rebased on its Start, as profile.Merge rebases them on the first
// profile's.
func Compose(ctx context.Context, m *MergedHeader, t ProfileType, samples []Sample, parts PartReader) (*profile.Profile, error) {
	columns := m.Columns(t)
	samples, err := aggregate(samples, len(columns))
	if err != nil {
		return nil, err
	}
	c := &composer{p: newProfile(m, t, columns)}
	if err := c.read(ctx, m, samples, parts); err != nil {
		return nil, err
	}
	if err := c.buildMappings(m); err != nil {
		return nil, err
	}
	c.buildSamples(samples)
	return c.p, nil
}

// aggregate returns samples sorted, those of one stack and label set
// added up, those of zero values dropped, with values of their own.
func aggregate(samples []Sample, columns int) ([]Sample, error) {
	sorted := slices.Clone(samples)
	slices.SortFunc(sorted, compareSamples)
	values := make([]int64, 0, len(sorted)*columns)
	out := sorted[:0]
	for _, s := range sorted {
		if len(s.Values) != columns {
			return nil, fmt.Errorf("sample of stack %s has %d values, want %d: %w", s.Stack, len(s.Values), columns, ErrInvalid)
		}
		if n := len(out); n > 0 && compareSamples(out[n-1], s) == 0 {
			addValues(out[n-1].Values, s.Values)
			continue
		}
		values = append(values, s.Values...)
		s.Values = values[len(values)-columns : len(values) : len(values)]
		out = append(out, s)
	}
	return slices.DeleteFunc(out, func(s Sample) bool { return isZero(s.Values) }), nil
}

// newProfile returns the profile of m, without samples.
func newProfile(m *MergedHeader, t ProfileType, columns []ValueType) *profile.Profile {
	p := &profile.Profile{
		Period:        m.Period,
		TimeNanos:     m.TimeNanos,
		DurationNanos: m.DurationNanos,
		DropFrames:    m.DropFrames.Value,
		KeepFrames:    m.KeepFrames.Value,
		DocURL:        m.DocURL.Value,
	}
	for _, c := range columns {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: c.Type, Unit: c.Unit})
	}
	if m.PeriodType != (ValueType{}) {
		p.PeriodType = &profile.ValueType{Type: m.PeriodType.Type, Unit: m.PeriodType.Unit}
	}
	for _, c := range m.Comments {
		p.Comments = append(p.Comments, c.Text)
	}
	p.DefaultSampleType = m.DefaultType.Value
	if t != (ProfileType{}) {
		p.DefaultSampleType = t.SampleType
	}
	return p
}

// A composer builds one profile.
type composer struct {
	p         *profile.Profile
	stacks    map[Hash]Stack
	locations map[Hash]Location
	functions map[Hash]Function
	mappings  map[Hash]Mapping // by part hash
	labelSets map[Hash]LabelSet

	byKey   map[Hash]*profile.Mapping // by Key, the mapping that stands for it
	locOut  map[Hash]*profile.Location
	funcOut map[Hash]*profile.Function
}

// read asks parts for everything the samples and m refer to.
func (c *composer) read(ctx context.Context, m *MergedHeader, samples []Sample, parts PartReader) error {
	var err error
	stackSet, labelSet := map[Hash]bool{}, map[Hash]bool{}
	for _, s := range samples {
		stackSet[s.Stack] = true
		if s.Labels != 0 {
			labelSet[s.Labels] = true
		}
	}
	if c.stacks, err = parts.ReadStacks(ctx, sortedHashes(stackSet)); err != nil {
		return fmt.Errorf("composing a profile: %w", err)
	}
	locSet := map[Hash]bool{}
	for _, st := range c.stacks {
		for _, l := range st {
			locSet[l] = true
		}
	}
	if c.locations, err = parts.ReadLocations(ctx, sortedHashes(locSet)); err != nil {
		return fmt.Errorf("composing a profile: %w", err)
	}
	funcSet := map[Hash]bool{}
	for _, l := range c.locations {
		for _, ln := range l.Lines {
			if ln.Function != 0 {
				funcSet[ln.Function] = true
			}
		}
	}
	if c.functions, err = parts.ReadFunctions(ctx, sortedHashes(funcSet)); err != nil {
		return fmt.Errorf("composing a profile: %w", err)
	}
	mappings := make([]Hash, len(m.Mappings))
	for i, u := range m.Mappings {
		mappings[i] = u.Hash
	}
	if c.mappings, err = parts.ReadMappings(ctx, mappings); err != nil {
		return fmt.Errorf("composing a profile: %w", err)
	}
	if c.labelSets, err = parts.ReadLabelSets(ctx, sortedHashes(labelSet)); err != nil {
		return fmt.Errorf("composing a profile: %w", err)
	}
	return nil
}

// buildMappings makes the profile's mappings: one for each Key that a
// location uses, and the main binary's.
func (c *composer) buildMappings(m *MergedHeader) error {
	reps := map[Hash]Mapping{} // by Key, the part that stands for it
	firsts := map[Hash]MappingUse{}
	for _, u := range m.Mappings {
		part := c.mappings[u.Hash]
		key := part.Key()
		if f, ok := firsts[key]; !ok || u.At.Before(f.At) || u.At == f.At && u.Hash < f.Hash {
			reps[key], firsts[key] = part, u
		}
	}
	used := map[Hash]bool{}
	for h, l := range c.locations {
		if l.Mapping == 0 {
			continue
		}
		if _, ok := reps[l.Mapping]; !ok {
			return fmt.Errorf("composing a profile: location %s: mapping key %s: %w", h, l.Mapping, ErrMissingPart)
		}
		used[l.Mapping] = true
	}
	var mainKey Hash
	if m.Main.Valid {
		mh, err := ParseHash(m.Main.Value)
		if err != nil {
			return fmt.Errorf("composing a profile: main mapping: %w", err)
		}
		main, ok := c.mappings[mh]
		if !ok {
			return fmt.Errorf("composing a profile: main mapping %s: %w", mh, ErrMissingPart)
		}
		mainKey = main.Key()
		used[mainKey] = true
	}
	keys := sortedHashes(used)
	slices.SortFunc(keys, func(a, b Hash) int {
		return cmp.Or(-cmp.Compare(boolInt(a == mainKey), boolInt(b == mainKey)),
			cmp.Compare(reps[a].Start, reps[b].Start), cmp.Compare(a, b))
	})
	c.byKey = make(map[Hash]*profile.Mapping, len(keys))
	for i, key := range keys {
		r := reps[key]
		pm := &profile.Mapping{
			ID: uint64(i + 1), Start: r.Start, Limit: r.Limit, Offset: r.Offset,
			File: r.File, BuildID: r.BuildID, KernelRelocationSymbol: r.KernelRelocationSymbol,
			HasFunctions: r.HasFunctions, HasFilenames: r.HasFilenames,
			HasLineNumbers: r.HasLineNumbers, HasInlineFrames: r.HasInlineFrames,
		}
		c.p.Mapping = append(c.p.Mapping, pm)
		c.byKey[key] = pm
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildSamples makes the profile's samples, and its locations and
// functions in the order the samples first use them.
func (c *composer) buildSamples(samples []Sample) {
	c.locOut = make(map[Hash]*profile.Location, len(c.locations))
	c.funcOut = make(map[Hash]*profile.Function, len(c.functions))
	c.p.Sample = make([]*profile.Sample, len(samples))
	for i, s := range samples {
		st := c.stacks[s.Stack]
		out := &profile.Sample{Location: make([]*profile.Location, len(st)), Value: s.Values}
		for j, lh := range st {
			out.Location[j] = c.location(lh)
		}
		if s.Labels != 0 {
			l := c.labels(s.Labels)
			out.Label, out.NumLabel, out.NumUnit = l.Label, l.NumLabel, l.NumUnit
		}
		c.p.Sample[i] = out
	}
}

func (c *composer) location(h Hash) *profile.Location {
	if l, ok := c.locOut[h]; ok {
		return l
	}
	part := c.locations[h]
	l := &profile.Location{ID: uint64(len(c.p.Location) + 1), Address: part.Address, IsFolded: part.IsFolded}
	if part.Mapping != 0 {
		l.Mapping = c.byKey[part.Mapping]
		l.Address += l.Mapping.Start
	}
	if len(part.Lines) > 0 {
		l.Line = make([]profile.Line, len(part.Lines))
	}
	for i, ln := range part.Lines {
		l.Line[i] = profile.Line{Function: c.function(ln.Function), Line: ln.Line, Column: ln.Column}
	}
	c.p.Location = append(c.p.Location, l)
	c.locOut[h] = l
	return l
}

func (c *composer) function(h Hash) *profile.Function {
	if h == 0 {
		return nil
	}
	if f, ok := c.funcOut[h]; ok {
		return f
	}
	part := c.functions[h]
	f := &profile.Function{ID: uint64(len(c.p.Function) + 1), Name: part.Name, SystemName: part.SystemName, Filename: part.Filename, StartLine: part.StartLine}
	c.p.Function = append(c.p.Function, f)
	c.funcOut[h] = f
	return f
}

// labels returns a sample holding the maps of label set h.
func (c *composer) labels(h Hash) *profile.Sample {
	ls := c.labelSets[h]
	s := &profile.Sample{}
	if len(ls.Strings) > 0 {
		s.Label = make(map[string][]string, len(ls.Strings))
	}
	for _, l := range ls.Strings {
		s.Label[l.Key] = slices.Clone(l.Values)
	}
	if len(ls.Numbers) > 0 {
		s.NumLabel = make(map[string][]int64, len(ls.Numbers))
	}
	for _, l := range ls.Numbers {
		s.NumLabel[l.Key] = slices.Clone(l.Values)
		if l.Units != nil {
			if s.NumUnit == nil {
				s.NumUnit = map[string][]string{}
			}
			// One unit for each value, whatever a store gave back:
			// profile.Write reads one for each.
			units := make([]string, len(l.Values))
			copy(units, l.Units)
			s.NumUnit[l.Key] = units
		}
	}
	return s
}
