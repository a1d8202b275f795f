package store

import (
	"context"
	"fmt"
	"regexp"
	"slices"
)

// A Function is a function part: the fields google/pprof's profile.Merge
// tells functions apart by.
type Function struct {
	Name, SystemName, Filename string
	StartLine                  int64
}

// Hash returns f's content hash.
func (f Function) Hash() Hash {
	var h hasher
	return f.hashWith(&h)
}

func (f Function) hashWith(h *hasher) Hash {
	f.encode(h)
	return h.sum()
}

func (f Function) encode(h *hasher) {
	h.reset(tagFunction)
	h.string(f.Name)
	h.string(f.SystemName)
	h.string(f.Filename)
	h.int(f.StartLine)
}

// A Mapping is a mapping part: one mapped binary of a profile, with every
// field of profile.Mapping but its ID. Its Hash covers all of them, Start
// included, so that a part's content never depends on which write stored
// it first; locations refer to its Key instead, which ASLR does not move.
type Mapping struct {
	Start, Limit, Offset   uint64
	File, BuildID          string
	KernelRelocationSymbol string
	HasFunctions           bool
	HasFilenames           bool
	HasLineNumbers         bool
	HasInlineFrames        bool
}

// Hash returns m's content hash.
func (m Mapping) Hash() Hash {
	var h hasher
	return m.hashWith(&h)
}

func (m Mapping) hashWith(h *hasher) Hash {
	m.encode(h)
	return h.sum()
}

func (m Mapping) encode(h *hasher) {
	h.reset(tagMapping)
	h.uint(m.Start)
	h.uint(m.Limit)
	h.uint(m.Offset)
	h.string(m.File)
	h.string(m.BuildID)
	h.string(m.KernelRelocationSymbol)
	h.bool(m.HasFunctions)
	h.bool(m.HasFilenames)
	h.bool(m.HasLineNumbers)
	h.bool(m.HasInlineFrames)
}

// mapsizeRounding is profile.Merge's: mapping sizes are rounded up to 4 KiB.
const mapsizeRounding = 0x1000

// Key returns the hash of what identifies m in google/pprof's
// profile.Merge: its size rounded up to 4 KiB, its offset, and its build
// ID or else its file. Mappings of the same binary in processes that
// loaded it at different addresses have the same Key.
func (m Mapping) Key() Hash {
	var h hasher
	return m.keyWith(&h)
}

func (m Mapping) keyWith(h *hasher) Hash {
	size := m.Limit - m.Start
	size += mapsizeRounding - 1
	size -= size % mapsizeRounding
	id := m.BuildID
	if id == "" {
		id = m.File
	}
	h.reset(tagMappingKey)
	h.uint(size)
	h.uint(m.Offset)
	h.string(id)
	return h.sum()
}

// A Line is one frame of a Location: the function's hash (0 for none),
// its line and column.
type Line struct {
	Function     Hash
	Line, Column int64
}

// A Location is a location part: the Key of its mapping (0 for none), its
// address relative to that mapping's start (absolute without a mapping),
// its lines (the innermost inlined frame first) and whether it is folded,
// which is what profile.Merge tells locations apart by.
type Location struct {
	Mapping  Hash
	Address  uint64
	Lines    []Line
	IsFolded bool
}

// Hash returns l's content hash.
func (l Location) Hash() Hash {
	var h hasher
	return l.hashWith(&h)
}

func (l Location) hashWith(h *hasher) Hash {
	l.encode(h)
	return h.sum()
}

func (l Location) encode(h *hasher) {
	h.reset(tagLocation)
	h.hash(l.Mapping)
	h.uint(l.Address)
	h.bool(l.IsFolded)
	h.uint(uint64(len(l.Lines)))
	for _, ln := range l.Lines {
		h.hash(ln.Function)
		h.int(ln.Line)
		h.int(ln.Column)
	}
}

// A Stack is a stack part: the hashes of a sample's locations, leaf first.
type Stack []Hash

// Hash returns s's content hash.
func (s Stack) Hash() Hash {
	var h hasher
	return s.hashWith(&h)
}

func (s Stack) hashWith(h *hasher) Hash {
	s.encode(h)
	return h.sum()
}

func (s Stack) encode(h *hasher) {
	h.reset(tagStack)
	h.uint(uint64(len(s)))
	for _, l := range s {
		h.hash(l)
	}
}

// A LabelSet is a label set part: the pprof labels of a sample, string
// ones sorted by key then numeric ones sorted by key. A key's values stay
// in their order, as profile.Merge keeps them.
type LabelSet struct {
	Strings []StringLabel
	Numbers []NumberLabel
}

// A StringLabel is a sample's string label: a key and its values.
type StringLabel struct {
	Key    string
	Values []string
}

// A NumberLabel is a sample's numeric label: a key, its values and their
// units (nil when none has a unit; else one for each value).
type NumberLabel struct {
	Key    string
	Values []int64
	Units  []string
}

// Empty reports whether ls has no label.
func (ls LabelSet) Empty() bool { return len(ls.Strings) == 0 && len(ls.Numbers) == 0 }

// Hash returns ls's content hash, 0 for the empty set.
func (ls LabelSet) Hash() Hash {
	var h hasher
	return ls.hashWith(&h)
}

func (ls LabelSet) hashWith(h *hasher) Hash {
	if ls.Empty() {
		return 0
	}
	ls.encode(h)
	return h.sum()
}

func (ls LabelSet) encode(h *hasher) {
	h.reset(tagLabelSet)
	h.uint(uint64(len(ls.Strings)))
	for _, l := range ls.Strings {
		h.string(l.Key)
		h.uint(uint64(len(l.Values)))
		for _, v := range l.Values {
			h.string(v)
		}
	}
	h.uint(uint64(len(ls.Numbers)))
	for _, l := range ls.Numbers {
		h.string(l.Key)
		h.uint(uint64(len(l.Values)))
		for _, v := range l.Values {
			h.int(v)
		}
		h.uint(uint64(len(l.Units)))
		for _, u := range l.Units {
			h.string(u)
		}
	}
}

// A Sample is a stack and label set and their values: one sample of a
// split profile, in the order of its Header's SampleTypes, or an
// aggregate of several given to Compose.
type Sample struct {
	Stack, Labels Hash
	Values        []int64
}

// Parts holds parts by their hash: a split profile's, or a simple store's.
// It implements PartReader.
type Parts struct {
	Functions map[Hash]Function
	Mappings  map[Hash]Mapping
	Locations map[Hash]Location
	Stacks    map[Hash]Stack
	LabelSets map[Hash]LabelSet
}

// NewParts returns empty Parts.
func NewParts() *Parts {
	return &Parts{
		Functions: map[Hash]Function{},
		Mappings:  map[Hash]Mapping{},
		Locations: map[Hash]Location{},
		Stacks:    map[Hash]Stack{},
		LabelSets: map[Hash]LabelSet{},
	}
}

// Add adds other's parts to ps.
func (ps *Parts) Add(other *Parts) {
	addAll(ps.Functions, other.Functions)
	addAll(ps.Mappings, other.Mappings)
	addAll(ps.Locations, other.Locations)
	addAll(ps.Stacks, other.Stacks)
	addAll(ps.LabelSets, other.LabelSets)
}

func addAll[T any](dst, src map[Hash]T) {
	for h, v := range src {
		if _, ok := dst[h]; !ok {
			dst[h] = v
		}
	}
}

// A PartReader finds parts by hash for Compose, which asks for each kind
// in one batch of distinct hashes: stacks, then their locations, then the
// functions of those and the mappings of the header, then label sets. A
// part it cannot find is an error (the store lost or never had it).
type PartReader interface {
	ReadStacks(ctx context.Context, hashes []Hash) (map[Hash]Stack, error)
	ReadLocations(ctx context.Context, hashes []Hash) (map[Hash]Location, error)
	ReadFunctions(ctx context.Context, hashes []Hash) (map[Hash]Function, error)
	ReadMappings(ctx context.Context, hashes []Hash) (map[Hash]Mapping, error)
	ReadLabelSets(ctx context.Context, hashes []Hash) (map[Hash]LabelSet, error)
}

var _ PartReader = (*Parts)(nil)

// ReadStacks returns the stacks of hashes.
func (ps *Parts) ReadStacks(_ context.Context, hashes []Hash) (map[Hash]Stack, error) {
	return pick(ps.Stacks, hashes, "stack")
}

// ReadLocations returns the locations of hashes.
func (ps *Parts) ReadLocations(_ context.Context, hashes []Hash) (map[Hash]Location, error) {
	return pick(ps.Locations, hashes, "location")
}

// ReadFunctions returns the functions of hashes.
func (ps *Parts) ReadFunctions(_ context.Context, hashes []Hash) (map[Hash]Function, error) {
	return pick(ps.Functions, hashes, "function")
}

// ReadMappings returns the mappings of hashes.
func (ps *Parts) ReadMappings(_ context.Context, hashes []Hash) (map[Hash]Mapping, error) {
	return pick(ps.Mappings, hashes, "mapping")
}

// ReadLabelSets returns the label sets of hashes.
func (ps *Parts) ReadLabelSets(_ context.Context, hashes []Hash) (map[Hash]LabelSet, error) {
	return pick(ps.LabelSets, hashes, "label set")
}

func pick[T any](m map[Hash]T, hashes []Hash, kind string) (map[Hash]T, error) {
	out := make(map[Hash]T, len(hashes))
	for _, h := range hashes {
		v, ok := m[h]
		if !ok {
			return nil, fmt.Errorf("%s %s: %w", kind, h, ErrMissingPart)
		}
		out[h] = v
	}
	return out, nil
}

// MatchesFocus reports whether l matches pprof's -focus regular expression
// re: the name or file name of one of its lines' functions matches, or
// mappingFile, the file of its mapping (the profile's own mapping of that
// Key; "" for none). function finds its lines' functions.
func (l Location) MatchesFocus(re *regexp.Regexp, function func(Hash) Function, mappingFile string) bool {
	for _, ln := range l.Lines {
		if ln.Function == 0 {
			continue
		}
		if f := function(ln.Function); re.MatchString(f.Name) || re.MatchString(f.Filename) {
			return true
		}
	}
	return l.Mapping != 0 && re.MatchString(mappingFile)
}

// sortedHashes returns the keys of m, sorted.
func sortedHashes[T any](m map[Hash]T) []Hash {
	hs := make([]Hash, 0, len(m))
	for h := range m {
		hs = append(hs, h)
	}
	slices.Sort(hs)
	return hs
}
