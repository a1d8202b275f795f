package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
)

// memory measures what a store keeps in memory: opened with days of
// small profiles of many series in blocks, the heap it takes for each
// series; and the head's cost for each profile written and not yet
// compacted.
func memory(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("memory", stderr)
	series := fs.Int("series", 1000, "series (instances of one service)")
	days := fs.Int("days", 30, "days of profiles")
	perDay := fs.Int("per-day", 4, "profiles of each series a day")
	head := fs.Int("head", 20000, "profiles written to a new store's WAL, for the head's cost")
	if err := parse(fs, args); err != nil {
		return err
	}
	f, err := fleetgen.New(fleetgen.Config{Service: "many", Instances: *series, PIE: true, Functions: 20, Stacks: 8, MaxDepth: 5, Samples: 8, Interval: 24 * time.Hour / time.Duration(*perDay)})
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "storebench-memory")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	n := *series * *days * *perDay
	profile := func(i int) (store.Profile, error) { return f.Profile("cpu", i%*series, i / *series) }
	if err := fill(ctx, dir, dirstore.Options{}, n, profile, true); err != nil {
		return err
	}
	opened, st, err := heapOfOpen(dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "a store of %d series, %d days, %d profiles in %d bytes of blocks: %d bytes of heap once open (%d a series)\n",
		st.Series, *days, st.Profiles, st.Bytes, opened, opened/int64(max(st.Series, 1)))
	headDir, err := os.MkdirTemp("", "storebench-head")
	if err != nil {
		return err
	}
	defer os.RemoveAll(headDir)
	before := heap()
	keep := dirstore.Options{SegmentBytes: 1 << 40, SegmentAge: 24 * time.Hour}
	s, err := dirstore.Open(headDir, keep)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, _, err := writeAll(ctx, s, *head, 16, profile); err != nil {
		return err
	}
	grown := heap() - before
	fmt.Fprintf(stdout, "the head of %d profiles of %d series not yet compacted: %d bytes of heap (%d a profile)\n", *head, min(*head, *series), grown, grown/int64(*head))
	return nil
}

// fill writes n profiles to a new store in dir, compacts it if told to,
// and closes it.
func fill(ctx context.Context, dir string, opts dirstore.Options, n int, profile func(int) (store.Profile, error), compact bool) error {
	s, err := dirstore.Open(dir, opts)
	if err != nil {
		return err
	}
	defer s.Close()
	if _, _, err := writeAll(ctx, s, n, 16, profile); err != nil {
		return err
	}
	if compact {
		return s.Compact(ctx)
	}
	return nil
}

// heapOfOpen returns the heap the store in dir takes once open, and its
// stats.
func heapOfOpen(dir string) (int64, store.Stats, error) {
	before := heap()
	s, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		return 0, store.Stats{}, err
	}
	defer s.Close()
	grown := heap() - before
	st, err := s.Stats(context.Background())
	return grown, st, err
}

// heap returns the bytes of live heap, after a collection.
func heap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
