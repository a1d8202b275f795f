package store

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// A ValueType is a sample type or period type: pprof's type and unit.
type ValueType struct {
	Type, Unit string
}

// A Header is what a split profile holds besides its samples and their
// parts.
type Header struct {
	SampleTypes       []ValueType
	DefaultSampleType string
	PeriodType        ValueType
	Period            int64
	TimeNanos         int64
	DurationNanos     int64
	Comments          []string
	DropFrames        string
	KeepFrames        string
	DocURL            string
	// Mappings are the hashes of the profile's mapping parts, in the
	// profile's order: the first is the main binary.
	Mappings []Hash
}

// Index returns the index of t's sample type among h's, or -1 when a
// profile with header h does not have type t: its SampleTypes lack t's
// sample type and unit, or its period type is not t's. A zero t gives -1.
func (h *Header) Index(t ProfileType) int {
	if t == (ProfileType{}) || h.PeriodType != (ValueType{t.PeriodType, t.PeriodUnit}) {
		return -1
	}
	return slices.Index(h.SampleTypes, ValueType{t.SampleType, t.SampleUnit})
}

// Types returns the profile types of a profile with header h in a series
// of kind name (its __name__), one for each sample type, as TypesOf does.
func (h *Header) Types(name string) []ProfileType {
	types := make([]ProfileType, len(h.SampleTypes))
	for i, st := range h.SampleTypes {
		types[i] = ProfileType{name, st.Type, st.Unit, h.PeriodType.Type, h.PeriodType.Unit}
	}
	return types
}

// An Order places a profile among others for the header fields that
// profile.Merge takes from the first profile: by Time (Unix nanoseconds of
// the store's time of the profile) and then by ProfileID.
type Order struct {
	Time int64
	ID   string
}

// Before reports whether o comes before p.
func (o Order) Before(p Order) bool {
	return cmp.Or(cmp.Compare(o.Time, p.Time), strings.Compare(o.ID, p.ID)) < 0
}

// OrderOf returns the Order of the profile stored at t with id.
func OrderOf(t time.Time, id string) Order { return Order{t.UnixNano(), id} }

// A First is a value taken from the first profile (in Order) that has
// one; Valid reports that some profile had one.
type First struct {
	Value string
	At    Order
	Valid bool
}

// first returns the First of value at, or the zero First if !ok.
func first(value string, at Order, ok bool) First {
	if !ok {
		return First{}
	}
	return First{value, at, true}
}

func (f *First) add(g First) {
	if g.Valid && (!f.Valid || g.At.Before(f.At)) {
		*f = g
	}
}

// A Comment is one of the merged comments, and the first profile that has
// it.
type Comment struct {
	Text string
	At   Order
}

// A MergedHeader is the header of the merge of several profiles, the
// aggregate of their Headers (see MergeHeader). Add is associative and
// commutative, so a store may keep merged headers of time ranges (rollups)
// and add them up in any order; the result depends only on the multiset
// of profiles. It follows profile.Merge's combineHeaders, with "the first
// profile" meaning the first in Order:
//
//   - TimeNanos is the earliest nonzero one, DurationNanos the sum,
//     Period the largest;
//   - Comments are those of every profile, each once, in the Order of the
//     first profile that has it (then by text);
//   - DropFrames, KeepFrames and the main binary are the first
//     profile's, DocURL and DefaultSampleType the first nonempty ones;
//     of the mappings of one binary loaded at different addresses, the
//     first profile's stands for all (see MappingUse);
//   - SampleTypes are the profiles' common sample types when every profile
//     has the same list; otherwise Mixed is set, and a merge keeps only the
//     selected sample type (see Columns). profile.Merge would refuse such
//     profiles, and pprof would keep the types they share: perflab keeps
//     the one the selection asks for, which every selected profile has.
type MergedHeader struct {
	Profiles      int64
	SampleTypes   []ValueType // nil when Mixed
	Mixed         bool
	PeriodType    ValueType
	Period        int64
	TimeNanos     int64
	DurationNanos int64
	Comments      []Comment
	DropFrames    First
	KeepFrames    First
	DocURL        First
	DefaultType   First
	// Main is the hash of the first profile's first mapping part.
	Main First
	// Mappings are the profiles' mapping parts, sorted by hash.
	Mappings []MappingUse
}

// A MappingUse is a mapping part of merged profiles, and the Order of the
// first profile that has it: of the parts with one Key (a binary loaded at
// different addresses), the merge keeps the first profile's, as
// profile.Merge keeps the first profile's mapping.
type MappingUse struct {
	Hash Hash
	At   Order
}

// MergeHeader returns the merged header of one profile with header h,
// stored at Order at.
func MergeHeader(h *Header, at Order) MergedHeader {
	m := MergedHeader{
		Profiles:      1,
		SampleTypes:   slices.Clone(h.SampleTypes),
		PeriodType:    h.PeriodType,
		Period:        h.Period,
		TimeNanos:     h.TimeNanos,
		DurationNanos: h.DurationNanos,
		DropFrames:    first(h.DropFrames, at, true),
		KeepFrames:    first(h.KeepFrames, at, true),
		DocURL:        first(h.DocURL, at, h.DocURL != ""),
		DefaultType:   first(h.DefaultSampleType, at, h.DefaultSampleType != ""),
	}
	for _, c := range h.Comments {
		m.addComment(Comment{c, at})
	}
	if len(h.Mappings) > 0 {
		m.Main = first(h.Mappings[0].String(), at, true)
		uses := make([]MappingUse, len(h.Mappings))
		for i, mh := range h.Mappings {
			uses[i] = MappingUse{mh, at}
		}
		slices.SortFunc(uses, func(a, b MappingUse) int { return cmp.Compare(a.Hash, b.Hash) })
		m.Mappings = slices.CompactFunc(uses, func(a, b MappingUse) bool { return a.Hash == b.Hash })
	}
	return m
}

// Add adds the profiles of o to m.
func (m *MergedHeader) Add(o *MergedHeader) {
	if o.Profiles == 0 {
		return
	}
	if m.Profiles == 0 {
		*m = o.clone()
		return
	}
	m.Profiles += o.Profiles
	if !m.Mixed && (o.Mixed || !slices.Equal(m.SampleTypes, o.SampleTypes)) {
		m.Mixed, m.SampleTypes = true, nil
	}
	m.Period = max(m.Period, o.Period)
	if o.TimeNanos != 0 && (m.TimeNanos == 0 || o.TimeNanos < m.TimeNanos) {
		m.TimeNanos = o.TimeNanos
	}
	m.DurationNanos += o.DurationNanos
	for _, c := range o.Comments {
		m.addComment(c)
	}
	m.DropFrames.add(o.DropFrames)
	m.KeepFrames.add(o.KeepFrames)
	m.DocURL.add(o.DocURL)
	m.DefaultType.add(o.DefaultType)
	m.Main.add(o.Main)
	m.Mappings = mergeSorted(m.Mappings, o.Mappings)
}

func (m *MergedHeader) clone() MergedHeader {
	c := *m
	c.SampleTypes = slices.Clone(m.SampleTypes)
	c.Comments = slices.Clone(m.Comments)
	c.Mappings = slices.Clone(m.Mappings)
	return c
}

// addComment adds c, or moves the comment's Order earlier.
func (m *MergedHeader) addComment(c Comment) {
	i := slices.IndexFunc(m.Comments, func(d Comment) bool { return d.Text == c.Text })
	switch {
	case i < 0:
		m.Comments = append(m.Comments, c)
	case c.At.Before(m.Comments[i].At):
		m.Comments[i].At = c.At
	default:
		return
	}
	slices.SortFunc(m.Comments, func(a, b Comment) int {
		if a.At != b.At {
			if a.At.Before(b.At) {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Text, b.Text)
	})
}

// mergeSorted returns the union of two lists sorted by hash, with the
// earlier Order of a hash in both.
func mergeSorted(a, b []MappingUse) []MappingUse {
	out := make([]MappingUse, 0, len(a)+len(b))
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Hash < b[0].Hash:
			out, a = append(out, a[0]), a[1:]
		case len(a) == 0 || b[0].Hash < a[0].Hash:
			out, b = append(out, b[0]), b[1:]
		default:
			u := a[0]
			if b[0].At.Before(u.At) {
				u.At = b[0].At
			}
			out, a, b = append(out, u), a[1:], b[1:]
		}
	}
	return out
}

// Columns returns the sample types of the merge of profiles with header m
// when selection type t picked them, which is the layout of the values
// that Compose takes: every sample type when the profiles share one list
// (and for a zero t), else only t's. Column reports where a profile's
// values go.
func (m *MergedHeader) Columns(t ProfileType) []ValueType {
	if !m.Mixed || t == (ProfileType{}) {
		return m.SampleTypes
	}
	return []ValueType{{t.SampleType, t.SampleUnit}}
}

// Column returns, for a profile with header h among those of m, the index
// of h's value that goes in the merge's only column when m is Mixed, or -1
// when all of h's values go into the merge as they are.
func (m *MergedHeader) Column(h *Header, t ProfileType) int {
	if !m.Mixed || t == (ProfileType{}) {
		return -1
	}
	return h.Index(t)
}
