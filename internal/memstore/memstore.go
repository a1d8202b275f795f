package memstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/store"
)

// ErrNotImplemented is what the Reader methods return.
var ErrNotImplemented = errors.New("memstore: not implemented")

// A Store keeps written profiles in memory.
type Store struct {
	mu      sync.Mutex
	limits  store.Limits
	written []store.Profile
	writes  int
	busy    bool
}

var _ store.Store = (*Store)(nil)

// New returns an empty Store with limits.
func New(limits store.Limits) *Store { return &Store{limits: limits.WithDefaults()} }

// SetBusy makes Write fail with store.ErrBusy while busy is true.
func (s *Store) SetBusy(busy bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy = busy
}

// Write keeps copies of ps, all or none.
func (s *Store) Write(ctx context.Context, ps ...store.Profile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		return fmt.Errorf("memstore: %w", store.ErrBusy)
	}
	for _, p := range ps {
		if err := p.Labels.Check(s.limits); err != nil {
			return err
		}
		if err := p.Profile.CheckValid(); err != nil {
			return fmt.Errorf("memstore: invalid profile: %w", err)
		}
		if len(p.Profile.Sample) > s.limits.MaxProfileSamples {
			return fmt.Errorf("memstore: %d samples: %w", len(p.Profile.Sample), store.ErrLimit)
		}
	}
	for _, p := range ps {
		p.Profile = p.Profile.Copy()
		if p.Time.IsZero() {
			p.Time = time.Unix(0, p.Profile.TimeNanos)
		}
		s.written = append(s.written, p)
	}
	s.writes++
	return nil
}

// Written returns the profiles written so far, in order.
func (s *Store) Written() []store.Profile {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]store.Profile(nil), s.written...)
}

// Writes returns how many Write calls succeeded.
func (s *Store) Writes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// Stats counts the profiles and series written.
func (s *Store) Stats(context.Context) (store.Stats, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := store.Stats{Profiles: int64(len(s.written))}
	series := map[string]bool{}
	for _, p := range s.written {
		series[p.Labels.String()] = true
		if st.Oldest.IsZero() || p.Time.Before(st.Oldest) {
			st.Oldest = p.Time
		}
		if p.Time.After(st.Newest) {
			st.Newest = p.Time
		}
	}
	st.Series = len(series)
	return st, nil
}

// ProfileTypes answers ErrNotImplemented.
func (s *Store) ProfileTypes(context.Context, store.Selection) ([]store.ProfileType, error) {
	return nil, ErrNotImplemented
}

// LabelNames answers ErrNotImplemented.
func (s *Store) LabelNames(context.Context, store.Selection) ([]string, error) {
	return nil, ErrNotImplemented
}

// LabelValues answers ErrNotImplemented.
func (s *Store) LabelValues(context.Context, store.Selection, string) ([]string, error) {
	return nil, ErrNotImplemented
}

// Series answers ErrNotImplemented.
func (s *Store) Series(context.Context, store.Selection) ([]store.Labels, error) {
	return nil, ErrNotImplemented
}

// Merge answers ErrNotImplemented.
func (s *Store) Merge(context.Context, store.Selection) (*profile.Profile, error) {
	return nil, ErrNotImplemented
}

// Totals answers ErrNotImplemented.
func (s *Store) Totals(context.Context, store.TotalsQuery) ([]store.TimeSeries, error) {
	return nil, ErrNotImplemented
}

// Profiles answers ErrNotImplemented.
func (s *Store) Profiles(context.Context, store.Selection, int) ([]store.ProfileInfo, error) {
	return nil, ErrNotImplemented
}

// Profile answers ErrNotImplemented.
func (s *Store) Profile(context.Context, string) (*profile.Profile, error) {
	return nil, ErrNotImplemented
}

// DropBefore drops the profiles older than t.
func (s *Store) DropBefore(_ context.Context, t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.written[:0]
	for _, p := range s.written {
		if !p.Time.Before(t) {
			kept = append(kept, p)
		}
	}
	s.written = kept
	return nil
}

// Close does nothing.
func (s *Store) Close() error { return nil }
