package storetest

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// Reference is an in-memory store.Store, the executable specification of
// the interface: see the package documentation. Its methods may be called
// concurrently.
type Reference struct {
	limits store.Limits

	mu       sync.RWMutex
	parts    *store.Parts
	profiles []*stored // in write order
}

var _ store.Store = (*Reference)(nil)

// A stored profile, as Reference keeps it.
type stored struct {
	id      string
	labels  store.Labels
	time    time.Time
	header  store.Header
	samples []store.Sample
	// mappingFiles are the files of the profile's own mappings, by Key:
	// what Totals' Focus matches.
	mappingFiles map[store.Hash]string
}

// NewReference returns an empty Reference with limits (zero fields take
// store.DefaultLimits').
func NewReference(limits store.Limits) *Reference {
	return &Reference{limits: limits.WithDefaults(), parts: store.NewParts()}
}

// Write stores ps, all or none. A profile is refused with an error
// wrapping store.ErrLimit when its labels break store.Labels.Check, it has
// more samples than MaxProfileSamples, or its series would be one over
// MaxSeries; with store.ErrInvalid when it is nil, invalid (see
// store.Split), or has neither a Time nor a TimeNanos.
func (r *Reference) Write(ctx context.Context, ps ...store.Profile) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	news := make([]*stored, len(ps))
	series := r.seriesSet()
	for i, p := range ps {
		s, err := r.prepare(p)
		if err != nil {
			return fmt.Errorf("profile %d of %d: %w", i+1, len(ps), err)
		}
		series[s.labels.String()] = true
		if len(series) > r.limits.MaxSeries {
			return fmt.Errorf("profile %d of %d: series %s: more than the limit of %d series: %w", i+1, len(ps), s.labels, r.limits.MaxSeries, store.ErrLimit)
		}
		news[i] = s
	}
	r.profiles = append(r.profiles, news...)
	return nil
}

// prepare checks and splits p, adding its parts to r's.
func (r *Reference) prepare(p store.Profile) (*stored, error) {
	x, err := store.Prepare(p, r.limits)
	if err != nil {
		return nil, err
	}
	sp := x.Split
	r.parts.Add(sp.Parts)
	s := &stored{
		id: x.ID, labels: x.Labels, time: x.Time,
		header: sp.Header, samples: sp.Samples, mappingFiles: map[store.Hash]string{},
	}
	for _, h := range sp.Header.Mappings {
		m := sp.Parts.Mappings[h]
		if _, ok := s.mappingFiles[m.Key()]; !ok {
			s.mappingFiles[m.Key()] = m.File
		}
	}
	return s, nil
}

func (r *Reference) seriesSet() map[string]bool {
	set := map[string]bool{}
	for _, s := range r.profiles {
		set[s.labels.String()] = true
	}
	return set
}

// picked returns the profiles sel picks, in write order.
func (r *Reference) picked(sel store.Selection) []*stored {
	var out []*stored
	for _, s := range r.profiles {
		if sel.Picks(s.labels, s.time, &s.header) {
			out = append(out, s)
		}
	}
	return out
}

// ProfileTypes lists the types of the profiles sel picks, sel.Type
// ignored, sorted by ID.
func (r *Reference) ProfileTypes(ctx context.Context, sel store.Selection) ([]store.ProfileType, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	sel.Type = store.ProfileType{}
	var types []store.ProfileType
	for _, s := range r.picked(sel) {
		for _, t := range s.header.Types(s.labels.Get(store.LabelName)) {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	slices.SortFunc(types, func(a, b store.ProfileType) int { return strings.Compare(a.ID(), b.ID()) })
	return types, nil
}

// LabelNames lists the label names of the series sel picks, sorted.
func (r *Reference) LabelNames(ctx context.Context, sel store.Selection) ([]string, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var names []string
	for _, s := range r.picked(sel) {
		for _, l := range s.labels {
			names = append(names, l.Name)
		}
	}
	return sortedUnique(names), nil
}

// LabelValues lists the values of label name in the series sel picks,
// sorted, without "".
func (r *Reference) LabelValues(ctx context.Context, sel store.Selection, name string) ([]string, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var values []string
	for _, s := range r.picked(sel) {
		if v := s.labels.Get(name); v != "" {
			values = append(values, v)
		}
	}
	return sortedUnique(values), nil
}

func sortedUnique(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// Series lists the series sel picks, sorted by their labels.
func (r *Reference) Series(ctx context.Context, sel store.Selection) ([]store.Labels, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var series []store.Labels
	for _, s := range r.picked(sel) {
		series = append(series, s.labels)
	}
	slices.SortFunc(series, store.Labels.Compare)
	return slices.CompactFunc(series, func(a, b store.Labels) bool { return a.Compare(b) == 0 }), nil
}

// Merge returns the merge of the profiles sel picks, an error wrapping
// store.ErrNotFound when it picks none, or store.ErrInvalid when sel has
// no Type.
func (r *Reference) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	if sel.Type == (store.ProfileType{}) {
		return nil, fmt.Errorf("merge of %s: no profile type: %w", sel.Selector, store.ErrInvalid)
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	picked := r.picked(sel)
	if len(picked) == 0 {
		return nil, fmt.Errorf("%s %s: no profile in range: %w", sel.Type, sel.Selector, store.ErrNotFound)
	}
	return r.compose(ctx, picked, sel.Type)
}

// compose merges profiles as a selection of type t (zero for one stored
// profile alone) returns them.
func (r *Reference) compose(ctx context.Context, profiles []*stored, t store.ProfileType) (*profile.Profile, error) {
	var m store.MergedHeader
	for _, s := range profiles {
		h := store.MergeHeader(&s.header, store.OrderOf(s.time, s.id))
		m.Add(&h)
	}
	var samples []store.Sample
	for _, s := range profiles {
		col := m.Column(&s.header, t)
		for _, x := range s.samples {
			if col >= 0 {
				x.Values = []int64{x.Values[col]}
			}
			samples = append(samples, x)
		}
	}
	return store.Compose(ctx, &m, t, samples, r.parts)
}

// Profiles lists the profiles sel picks, latest first (then by ID), at
// most limit of them (0 means no limit). Total is 0 when sel has no Type.
func (r *Reference) Profiles(ctx context.Context, sel store.Selection, limit int) ([]store.ProfileInfo, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var infos []store.ProfileInfo
	for _, s := range r.picked(sel) {
		infos = append(infos, store.ProfileInfo{
			ID: s.id, Labels: s.labels, Time: s.time,
			Duration: time.Duration(s.header.DurationNanos),
			Total:    total(s, sel.Type, nil),
		})
	}
	slices.SortFunc(infos, func(a, b store.ProfileInfo) int {
		return cmp.Or(b.Time.Compare(a.Time), strings.Compare(a.ID, b.ID))
	})
	if limit > 0 && len(infos) > limit {
		infos = infos[:limit]
	}
	return infos, nil
}

// Profile returns the stored profile id names, composed alone with its
// own sample types, or an error wrapping store.ErrNotFound.
func (r *Reference) Profile(ctx context.Context, id string) (*profile.Profile, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, s := range r.profiles {
		if s.id == id {
			return r.compose(ctx, []*stored{s}, store.ProfileType{})
		}
	}
	return nil, fmt.Errorf("profile %q: %w", id, store.ErrNotFound)
}

// Stats describes what r holds; Bytes counts 8 bytes for each value and
// hash of the stored samples.
func (r *Reference) Stats(ctx context.Context) (store.Stats, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	st := store.Stats{Profiles: int64(len(r.profiles)), Series: len(r.seriesSet())}
	for _, s := range r.profiles {
		if st.Oldest.IsZero() || s.time.Before(st.Oldest) {
			st.Oldest = s.time
		}
		if s.time.After(st.Newest) {
			st.Newest = s.time
		}
		for _, x := range s.samples {
			st.Bytes += int64(16 + 8*len(x.Values))
		}
	}
	return st, nil
}

// DropBefore deletes the profiles older than t, exactly: Reference's time
// partitions are a nanosecond long. It keeps the parts.
func (r *Reference) DropBefore(ctx context.Context, t time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.profiles = slices.DeleteFunc(r.profiles, func(s *stored) bool { return s.time.Before(t) })
	return nil
}

// Close does nothing: Reference keeps nothing beyond the process.
func (r *Reference) Close() error { return nil }
