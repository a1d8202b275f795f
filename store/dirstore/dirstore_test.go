package dirstore

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// testLog collects what a store logs, for the test to check.
type testLog struct {
	t     testing.TB
	mu    sync.Mutex
	lines []string
}

func (l *testLog) log(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	l.t.Log(line)
}

// has reports whether a line logged contains all of parts.
func (l *testLog) has(parts ...string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(line, p)
		}
		if ok {
			return true
		}
	}
	return false
}

// openStore opens the store in dir, which the test closes.
func openStore(t testing.TB, dir string, opts Options) *Store {
	t.Helper()
	if opts.Log == nil {
		opts.Log = func(line string) { t.Log(line) }
	}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// compacting is a Store that compacts after each Write, so that the
// suite reads blocks, rollups and merged blocks.
type compacting struct{ *Store }

func (c compacting) Write(ctx context.Context, ps ...store.Profile) error {
	if err := c.Store.Write(ctx, ps...); err != nil {
		return err
	}
	return c.Store.Compact(ctx)
}

// TestSuite runs store/storetest's suite on a store that keeps the
// profiles in its WAL, one that compacts them into blocks after each
// Write (with merges and rollups), and one of small segments compacted in
// the background, which the suite reopens as a crash would leave it: a
// copy of its files made while it is open. About 5 s.
func TestSuite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    Options
		compact bool
		crash   bool
	}{
		{name: "WAL"},
		{name: "Blocks", compact: true},
		{name: "Crash", opts: Options{SegmentBytes: 64 << 10}, crash: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wrap := func(s *Store) store.Store {
				if tc.compact {
					return compacting{s}
				}
				return s
			}
			storetest.Run(t, storetest.Backend{
				Open: func(t *testing.T, limits store.Limits) store.Store {
					opts := tc.opts
					opts.Limits = limits
					return wrap(openStore(t, t.TempDir(), opts))
				},
				Reopen: func(t *testing.T, st store.Store) store.Store {
					s := unwrap(st)
					dir := s.dir
					if tc.crash {
						dir = crashCopy(t, s)
					}
					if err := s.Close(); err != nil {
						t.Fatalf("Close: %v", err)
					}
					return wrap(openStore(t, dir, s.opts))
				},
				Partition: 24 * time.Hour,
			})
		})
	}
}

func unwrap(st store.Store) *Store {
	if c, ok := st.(compacting); ok {
		return c.Store
	}
	return st.(*Store)
}

// crashCopy copies the files of s, open, to a new directory, as a crash
// would leave them: everything Write acknowledged is synced. It holds
// compaction off while it copies, so that the copy is of one moment.
func crashCopy(t testing.TB, s *Store) string {
	t.Helper()
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	dst := t.TempDir()
	copyDir(t, s.dir, dst)
	return dst
}
