package store

import (
	"context"
	"errors"
	"regexp"
	"time"

	"github.com/google/pprof/profile"
)

// A Profile is one profile given to Store.Write.
type Profile struct {
	// Labels name the profile's series. They must hold __name__ and
	// service_name (see CheckLabels); Write keeps them sorted by name.
	Labels Labels
	// Time is when the profile's collection began; it decides which
	// selections hold the profile. A zero Time means the profile's own
	// TimeNanos.
	Time time.Time
	// Profile is the decoded, valid profile (profile.CheckValid passes).
	// Write does not change it, and does not keep it after returning.
	Profile *profile.Profile
}

// A Selection picks the profiles of the series its Selector matches
// whose Time is in [Start, End), and of those the ones with Type's sample
// type (see Selection.Picks). A zero End means no end. A zero Type picks
// every type: label and series queries take it so; Merge and Totals need
// one.
type Selection struct {
	Type       ProfileType
	Selector   Selector
	Start, End time.Time
}

// ProfileInfo describes one stored profile, as Reader.Profiles lists them.
type ProfileInfo struct {
	// ID names the profile for Reader.Profile. It is derived from the
	// profile's series, time and content (see ProfileID), so it is the same
	// on every backend.
	ID       string
	Labels   Labels
	Time     time.Time
	Duration time.Duration
	// Total is the sum of the selection's sample type over the profile's
	// samples.
	Total int64
}

// A TotalsQuery asks for the total of a selection's sample type over
// time, as the viewer's chart and Pyroscope's SelectSeries draw it.
type TotalsQuery struct {
	Selection
	// Step is the width of each point's time bucket; buckets are aligned
	// to multiples of Step since the Unix epoch. It must be positive.
	Step time.Duration
	// GroupBy names labels: one series of points for each combination of
	// their values (a missing label counts as ""). Empty means one series.
	GroupBy []string
	// Focus, if not nil, counts only the samples whose stack has a frame
	// that matches it, as pprof's -focus: a frame matches when its function
	// name, its file name or its mapping's file matches (see
	// Location.MatchesFocus; the mapping is the profile's own).
	Focus *regexp.Regexp
}

// A TimeSeries is one group of a TotalsQuery's answer. Its Labels are the
// GroupBy labels with their values ("" for a series without the label);
// its Points are in time order, one for each bucket that holds at least
// one profile, in UTC.
type TimeSeries struct {
	Labels Labels
	Points []Point
}

// A Point is the total of one time bucket, which begins at Time.
type Point struct {
	Time  time.Time
	Value int64
}

// Stats describe what a store holds.
type Stats struct {
	Profiles       int64
	Series         int
	Oldest, Newest time.Time // zero when the store is empty
	// Bytes is the size of what the store keeps, as its backend measures it
	// (files on disk; ClickHouse's compressed bytes on disk).
	Bytes int64
}

// A Reader answers selections. Every method returns results in a
// deterministic order that depends only on what the store holds, so two
// backends given the same writes answer alike.
type Reader interface {
	// ProfileTypes lists the types of the profiles sel picks (sel.Type is
	// ignored), sorted by ID.
	ProfileTypes(ctx context.Context, sel Selection) ([]ProfileType, error)
	// LabelNames lists the label names of the series sel picks, sorted.
	LabelNames(ctx context.Context, sel Selection) ([]string, error)
	// LabelValues lists the values of label name in the series sel picks,
	// sorted, without "".
	LabelValues(ctx context.Context, sel Selection, name string) ([]string, error)
	// Series lists the series sel picks, sorted by their labels (see
	// Labels.Compare).
	Series(ctx context.Context, sel Selection) ([]Labels, error)
	// Merge returns the merge of the profiles sel picks (see the package
	// documentation), with sel.Type's sample type as its default sample
	// type, or an error wrapping ErrNotFound when it picks none, or
	// ErrInvalid when sel has no Type.
	Merge(ctx context.Context, sel Selection) (*profile.Profile, error)
	// Totals returns q's time series, sorted by their labels, or an error
	// wrapping ErrInvalid when q has no Type or Step is not positive.
	Totals(ctx context.Context, q TotalsQuery) ([]TimeSeries, error)
	// Profiles lists the profiles sel picks, latest first (then by ID), at
	// most limit of them (0 means no limit). Their Total is 0 when sel has
	// no Type.
	Profiles(ctx context.Context, sel Selection, limit int) ([]ProfileInfo, error)
	// Profile returns the stored profile id names, as Merge would return a
	// selection of it alone but with all its sample types and its own
	// default sample type, or an error wrapping ErrNotFound.
	Profile(ctx context.Context, id string) (*profile.Profile, error)
	// Stats describes what the store holds.
	Stats(ctx context.Context) (Stats, error)
}

// A Store keeps profiles by series and time and answers selections.
// Its methods may be called concurrently.
type Store interface {
	Reader
	// Write stores ps, all or none: when it returns nil, every profile is
	// durable (it survives the process being killed, and a restart reads
	// it). It returns an error wrapping ErrLimit when a profile or its
	// series breaks the store's Limits, and one wrapping ErrBusy when the
	// store cannot take more now (back-pressure: try again later).
	Write(ctx context.Context, ps ...Profile) error
	// DropBefore deletes the profiles older than t, at the granularity of
	// the backend's time partitions: what it keeps may begin earlier than
	// t, never later.
	DropBefore(ctx context.Context, t time.Time) error
	// Close flushes what the store holds in memory and releases it.
	Close() error
}

// The errors a store's methods wrap, so that a server can answer with
// the right status.
var (
	// ErrNotFound: the selection picks no profile, or no profile has
	// that ID (HTTP 404).
	ErrNotFound = errors.New("not found")
	// ErrLimit: a profile or its series is over one of the Limits (HTTP
	// 400; the error says which limit).
	ErrLimit = errors.New("over a limit")
	// ErrBusy: the store is full for now, or its backend is unreachable
	// and its buffer full (HTTP 429; retry later).
	ErrBusy = errors.New("busy")
	// ErrInvalid: a profile or a query is malformed: a profile that
	// profile.CheckValid refuses or that has no time, a Merge or Totals
	// without a profile type (HTTP 400).
	ErrInvalid = errors.New("invalid")
)

// Limits bound what a store takes, so that no input makes it run out of
// memory or disk index space. Zero fields take DefaultLimits' values.
type Limits struct {
	// MaxSeries bounds the number of distinct series.
	MaxSeries int
	// MaxLabels bounds the number of labels of one series.
	MaxLabels int
	// MaxLabelNameLength and MaxLabelValueLength bound each label's name
	// and value, in bytes.
	MaxLabelNameLength, MaxLabelValueLength int
	// MaxProfileSamples bounds the samples of one profile.
	MaxProfileSamples int
	// MemoryBudget bounds the bytes a store holds in memory for writes not
	// yet durable or not yet handed to its backend; beyond it Write
	// returns ErrBusy.
	MemoryBudget int64
}

// DefaultLimits are the limits a store has unless told otherwise:
// Pyroscope's defaults for labels, and room for a large fleet.
var DefaultLimits = Limits{
	MaxSeries:           100_000,
	MaxLabels:           30,
	MaxLabelNameLength:  1024,
	MaxLabelValueLength: 2048,
	MaxProfileSamples:   1_000_000,
	MemoryBudget:        256 << 20,
}

// WithDefaults returns l with its zero fields set to DefaultLimits'.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits
	if l.MaxSeries > 0 {
		d.MaxSeries = l.MaxSeries
	}
	if l.MaxLabels > 0 {
		d.MaxLabels = l.MaxLabels
	}
	if l.MaxLabelNameLength > 0 {
		d.MaxLabelNameLength = l.MaxLabelNameLength
	}
	if l.MaxLabelValueLength > 0 {
		d.MaxLabelValueLength = l.MaxLabelValueLength
	}
	if l.MaxProfileSamples > 0 {
		d.MaxProfileSamples = l.MaxProfileSamples
	}
	if l.MemoryBudget > 0 {
		d.MemoryBudget = l.MemoryBudget
	}
	return d
}
