package storetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/perflab/perflab/store"
)

// A Recorder is a store.Store that hands everything to another store and
// remembers, in order, the profiles that store accepted and the calls of
// Write that succeeded: the tests of the fleet's write path (ingest,
// scrape, collect's push mode) check with it what was written, and read
// it back from the store it wraps. SetBusy makes it refuse writes with
// store.ErrBusy, as a full store does. Its methods may be called
// concurrently.
type Recorder struct {
	store.Store

	mu      sync.Mutex
	written []store.Profile
	writes  int
	busy    bool
}

var _ store.Store = (*Recorder)(nil)

// NewRecorder returns a Recorder of writes to s.
func NewRecorder(s store.Store) *Recorder { return &Recorder{Store: s} }

// Write writes ps to the store, and keeps copies of them if it took them.
func (r *Recorder) Write(ctx context.Context, ps ...store.Profile) error {
	r.mu.Lock()
	busy := r.busy
	r.mu.Unlock()
	if busy {
		return fmt.Errorf("recorder: told to be full: %w", store.ErrBusy)
	}
	copies := make([]store.Profile, len(ps))
	for i, p := range ps {
		copies[i] = p
		if p.Profile != nil {
			copies[i].Profile = p.Profile.Copy()
		}
	}
	if err := r.Store.Write(ctx, ps...); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.written = append(r.written, copies...)
	r.writes++
	return nil
}

// Written returns the profiles written so far, in the order of the
// writes, as they were given to Write.
func (r *Recorder) Written() []store.Profile {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]store.Profile(nil), r.written...)
}

// Writes returns how many calls of Write succeeded.
func (r *Recorder) Writes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writes
}

// SetBusy makes Write refuse with store.ErrBusy while busy is true.
func (r *Recorder) SetBusy(busy bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy = busy
}
