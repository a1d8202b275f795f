package store

import (
	"fmt"
	"strings"

	"github.com/google/pprof/profile"
)

// A ProfileType names one sample type of one kind of profile, as Grafana
// Pyroscope's profile type IDs do: its ID is
// name:sample_type:sample_unit:period_type:period_unit, for example
// process_cpu:cpu:nanoseconds:cpu:nanoseconds. Name is the series'
// __name__ label.
type ProfileType struct {
	Name       string
	SampleType string
	SampleUnit string
	PeriodType string
	PeriodUnit string
}

// ID returns t's profile type ID, or "" for the zero ProfileType.
func (t ProfileType) ID() string {
	if t == (ProfileType{}) {
		return ""
	}
	return strings.Join([]string{t.Name, t.SampleType, t.SampleUnit, t.PeriodType, t.PeriodUnit}, ":")
}

// String returns t's ID.
func (t ProfileType) String() string { return t.ID() }

// Matches reports whether vt is t's sample type.
func (t ProfileType) Matches(vt *profile.ValueType) bool {
	return vt != nil && vt.Type == t.SampleType && vt.Unit == t.SampleUnit
}

// A Kind is one kind of Go profile as perflab names it on the command
// line, and what it means in the store: the series' __name__, the type a
// selection of that kind picks, and how a scraper fetches it.
type Kind struct {
	// Short is the name on the command line: cpu, allocs, heap, ...
	Short string
	// Type is what a selection of this kind picks; Type.Name is the
	// __name__ of the kind's series.
	Type ProfileType
	// Path is where net/http/pprof and collect's server serve the kind,
	// below /debug/pprof/.
	Path string
	// Cumulative means the served profile counts since the program
	// started; a scraper stores the difference between two scrapes.
	// For allocs, only the alloc_* sample types are cumulative.
	Cumulative bool
	// Timed means the server collects for ?seconds=N before answering
	// (CPU and wall-clock profiles).
	Timed bool
}

// Kinds is the table of kinds, in the order help lists them. allocs and
// heap are one profile (the runtime's heap profile, __name__ memory) with
// different sample types.
var Kinds = []Kind{
	{Short: "cpu", Type: ProfileType{"process_cpu", "cpu", "nanoseconds", "cpu", "nanoseconds"}, Path: "profile", Timed: true},
	{Short: "allocs", Type: ProfileType{"memory", "alloc_space", "bytes", "space", "bytes"}, Path: "allocs", Cumulative: true},
	{Short: "heap", Type: ProfileType{"memory", "inuse_space", "bytes", "space", "bytes"}, Path: "heap"},
	{Short: "goroutine", Type: ProfileType{"goroutines", "goroutine", "count", "goroutine", "count"}, Path: "goroutine"},
	{Short: "mutex", Type: ProfileType{"mutex", "delay", "nanoseconds", "contentions", "count"}, Path: "mutex", Cumulative: true},
	{Short: "block", Type: ProfileType{"block", "delay", "nanoseconds", "contentions", "count"}, Path: "block", Cumulative: true},
	{Short: "wall", Type: ProfileType{"wall", "wall", "nanoseconds", "wall", "nanoseconds"}, Path: "wall", Timed: true},
	{Short: "goroutineleak", Type: ProfileType{"goroutineleak", "goroutineleak", "count", "goroutineleak", "count"}, Path: "goroutineleak"},
}

// LookupKind returns the kind named short, such as "cpu".
func LookupKind(short string) (Kind, bool) {
	for _, k := range Kinds {
		if k.Short == short {
			return k, true
		}
	}
	return Kind{}, false
}

// ParseProfileType reads a profile type ID
// (name:sample_type:sample_unit:period_type:period_unit) or the short
// name of a kind (see Kinds).
func ParseProfileType(s string) (ProfileType, error) {
	if k, ok := LookupKind(s); ok {
		return k.Type, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) != 5 {
		return ProfileType{}, fmt.Errorf("profile type %q: want a kind (%s) or an ID name:sample_type:sample_unit:period_type:period_unit", clip(s), kindNames())
	}
	for _, p := range parts {
		if p == "" {
			return ProfileType{}, fmt.Errorf("profile type %q: a part of the ID is empty", clip(s))
		}
	}
	return ProfileType{parts[0], parts[1], parts[2], parts[3], parts[4]}, nil
}

func kindNames() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = k.Short
	}
	return strings.Join(names, ", ")
}

// TypesOf returns the profile types of a profile of series kind name (its
// __name__), one for each sample type, as Pyroscope lists them.
func TypesOf(name string, p *profile.Profile) []ProfileType {
	var pt, pu string
	if p.PeriodType != nil {
		pt, pu = p.PeriodType.Type, p.PeriodType.Unit
	}
	types := make([]ProfileType, len(p.SampleType))
	for i, st := range p.SampleType {
		types[i] = ProfileType{name, st.Type, st.Unit, pt, pu}
	}
	return types
}
