package store

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// A SplitProfile is a profile split into its content-addressed parts: its
// Header, the Parts its samples refer to, and its Samples, one for each
// distinct stack and label set (summed as profile.Merge sums them), sorted
// by stack then label set hash, without those whose values are all zero.
type SplitProfile struct {
	Header  Header
	Parts   *Parts
	Samples []Sample
}

// Split splits p, a valid profile (profile.CheckValid passes), into its
// parts. It does not change p. Profiles that profile.Merge would merge
// into the same samples split into the same parts.
func Split(p *profile.Profile) (*SplitProfile, error) {
	if err := p.CheckValid(); err != nil {
		return nil, fmt.Errorf("profile: %v: %w", err, ErrInvalid)
	}
	if len(p.SampleType) == 0 {
		return nil, fmt.Errorf("profile: no sample types: %w", ErrInvalid)
	}
	parts := &Parts{
		Functions: make(map[Hash]Function, len(p.Function)),
		Mappings:  make(map[Hash]Mapping, len(p.Mapping)),
		Locations: make(map[Hash]Location, len(p.Location)),
		Stacks:    make(map[Hash]Stack, len(p.Sample)),
		LabelSets: map[Hash]LabelSet{},
	}
	s := &splitter{
		out:       &SplitProfile{Header: header(p), Parts: parts},
		mappings:  make(map[uint64]mappingInfo, len(p.Mapping)),
		functions: newIDMap(len(p.Function)),
		locations: newIDMap(len(p.Location)),
	}
	for _, m := range p.Mapping {
		s.out.Header.Mappings = append(s.out.Header.Mappings, s.mapping(m))
	}
	for _, f := range p.Function {
		s.function(f)
	}
	for _, l := range p.Location {
		s.location(l)
	}
	s.samples(p.Sample)
	return s.out, nil
}

func header(p *profile.Profile) Header {
	h := Header{
		SampleTypes:       make([]ValueType, len(p.SampleType)),
		DefaultSampleType: p.DefaultSampleType,
		Period:            p.Period,
		TimeNanos:         p.TimeNanos,
		DurationNanos:     p.DurationNanos,
		Comments:          slices.Clone(p.Comments),
		DropFrames:        p.DropFrames,
		KeepFrames:        p.KeepFrames,
		DocURL:            p.DocURL,
	}
	for i, st := range p.SampleType {
		h.SampleTypes[i] = ValueType{st.Type, st.Unit}
	}
	if p.PeriodType != nil {
		h.PeriodType = ValueType{p.PeriodType.Type, p.PeriodType.Unit}
	}
	return h
}

type mappingInfo struct {
	key   Hash
	start uint64
}

// A splitter splits one profile, remembering the hashes of its IDs.
type splitter struct {
	out       *SplitProfile
	h         hasher
	mappings  map[uint64]mappingInfo
	functions idMap
	locations idMap
}

// An idMap maps a profile's IDs to hashes, in a slice for the dense IDs
// that profiles usually have.
type idMap struct {
	dense  []Hash
	sparse map[uint64]Hash
}

func newIDMap(n int) idMap { return idMap{dense: make([]Hash, n+1), sparse: map[uint64]Hash{}} }

func (m *idMap) get(id uint64) (Hash, bool) {
	if id < uint64(len(m.dense)) {
		h := m.dense[id]
		return h, h != 0
	}
	h, ok := m.sparse[id]
	return h, ok
}

func (m *idMap) set(id uint64, h Hash) {
	if id < uint64(len(m.dense)) {
		m.dense[id] = h
	} else {
		m.sparse[id] = h
	}
}

func (s *splitter) mapping(m *profile.Mapping) Hash {
	part := Mapping{
		Start: m.Start, Limit: m.Limit, Offset: m.Offset,
		File: m.File, BuildID: m.BuildID, KernelRelocationSymbol: m.KernelRelocationSymbol,
		HasFunctions: m.HasFunctions, HasFilenames: m.HasFilenames,
		HasLineNumbers: m.HasLineNumbers, HasInlineFrames: m.HasInlineFrames,
	}
	h := part.hashWith(&s.h)
	s.out.Parts.Mappings[h] = part
	s.mappings[m.ID] = mappingInfo{part.keyWith(&s.h), m.Start}
	return h
}

func (s *splitter) function(f *profile.Function) Hash {
	if h, ok := s.functions.get(f.ID); ok {
		return h
	}
	part := Function{Name: f.Name, SystemName: f.SystemName, Filename: f.Filename, StartLine: f.StartLine}
	h := part.hashWith(&s.h)
	s.out.Parts.Functions[h] = part
	s.functions.set(f.ID, h)
	return h
}

func (s *splitter) location(l *profile.Location) Hash {
	if h, ok := s.locations.get(l.ID); ok {
		return h
	}
	part := Location{Address: l.Address, IsFolded: l.IsFolded}
	if len(l.Line) > 0 {
		part.Lines = make([]Line, len(l.Line))
	}
	if l.Mapping != nil {
		mi := s.mappings[l.Mapping.ID]
		part.Mapping, part.Address = mi.key, l.Address-mi.start
	}
	for i, ln := range l.Line {
		part.Lines[i] = Line{Line: ln.Line, Column: ln.Column}
		if ln.Function != nil {
			part.Lines[i].Function = s.function(ln.Function)
		}
	}
	h := part.hashWith(&s.h)
	s.out.Parts.Locations[h] = part
	s.locations.set(l.ID, h)
	return h
}

// samples splits the samples, summing those of the same stack and labels.
func (s *splitter) samples(samples []*profile.Sample) {
	type key struct{ stack, labels Hash }
	index := make(map[key]int, len(samples))
	var stack Stack
	for _, src := range samples {
		if isZero(src.Value) {
			continue
		}
		stack = stack[:0]
		for _, l := range src.Location {
			stack = append(stack, s.location(l))
		}
		sh := stack.hashWith(&s.h)
		if _, ok := s.out.Parts.Stacks[sh]; !ok {
			s.out.Parts.Stacks[sh] = slices.Clone(stack)
		}
		ls := labelSet(src)
		lh := ls.hashWith(&s.h)
		if lh != 0 {
			s.out.Parts.LabelSets[lh] = ls
		}
		k := key{sh, lh}
		if i, ok := index[k]; ok {
			addValues(s.out.Samples[i].Values, src.Value)
			continue
		}
		index[k] = len(s.out.Samples)
		s.out.Samples = append(s.out.Samples, Sample{sh, lh, slices.Clone(src.Value)})
	}
	s.out.Samples = slices.DeleteFunc(s.out.Samples, func(x Sample) bool { return isZero(x.Values) })
	slices.SortFunc(s.out.Samples, compareSamples)
}

func compareSamples(a, b Sample) int {
	return cmp.Or(cmp.Compare(a.Stack, b.Stack), cmp.Compare(a.Labels, b.Labels))
}

func isZero(values []int64) bool {
	for _, v := range values {
		if v != 0 {
			return false
		}
	}
	return true
}

func addValues(dst, src []int64) {
	for i, v := range src {
		dst[i] += v
	}
}

// labelSet returns the label set of a sample: keys sorted, values in their
// order, units padded to the values' count or nil when all are empty.
func labelSet(s *profile.Sample) LabelSet {
	var ls LabelSet
	for k, vs := range s.Label {
		ls.Strings = append(ls.Strings, StringLabel{k, slices.Clone(vs)})
	}
	for k, vs := range s.NumLabel {
		l := NumberLabel{Key: k, Values: slices.Clone(vs)}
		units := s.NumUnit[k]
		if slices.ContainsFunc(units, func(u string) bool { return u != "" }) {
			l.Units = make([]string, len(vs))
			copy(l.Units, units)
		}
		ls.Numbers = append(ls.Numbers, l)
	}
	slices.SortFunc(ls.Strings, func(a, b StringLabel) int { return strings.Compare(a.Key, b.Key) })
	slices.SortFunc(ls.Numbers, func(a, b NumberLabel) int { return strings.Compare(a.Key, b.Key) })
	return ls
}

// ProfileID returns the ID of the profile s, stored in the series labels
// at t: 16 hexadecimal digits of a hash of the three, so that every
// backend names a profile alike. Two writes of the same profile to the
// same series at the same time have the same ID.
func ProfileID(labels Labels, t time.Time, s *SplitProfile) string {
	var h hasher
	h.reset(tagProfile)
	h.uint(uint64(len(labels)))
	for _, l := range labels {
		h.string(l.Name)
		h.string(l.Value)
	}
	h.int(t.UnixNano())
	h.string(string(s.Header.Encode()))
	h.uint(uint64(len(s.Samples)))
	for _, x := range s.Samples {
		h.hash(x.Stack)
		h.hash(x.Labels)
		h.uint(uint64(len(x.Values)))
		for _, v := range x.Values {
			h.int(v)
		}
	}
	return h.sum().String()
}
