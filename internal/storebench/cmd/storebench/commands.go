package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/storebench"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/clickhouse"
	"github.com/perflab/perflab/store/dirstore"
	"github.com/perflab/perflab/stores"
)

func build(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("build", stderr)
	cache := fs.String("cache", "", "the cache `directory` of built stores")
	days := fs.Int("days", 30, "days of profiles")
	backend := fs.String("backend", "dir", "the store: dir (store/dirstore) or clickhouse (store/clickhouse)")
	shards := fs.Int("shards", 1, "ClickHouse servers, a cluster when more than one")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *cache == "" || *days < 1 || *shards < 1 || *backend != "dir" && *backend != "clickhouse" {
		fmt.Fprintln(stderr, "storebench build: -cache is required, -days and -shards must be positive, -backend dir or clickhouse")
		return errUsage
	}
	var dir string
	var err error
	if *backend == "dir" {
		dir, _, err = storebench.Cached(ctx, *cache, *days, stderr)
	} else {
		dir, _, err = storebench.CachedClickHouse(ctx, *cache, *days, *shards, stderr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, dir)
	return nil
}

func size(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("size", stderr)
	dir := fs.String("store", "", "the store's `directory`")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := storebench.ReadManifest(*dir)
	if err != nil {
		return err
	}
	days := min(m.Days, storebench.SizeDays)
	fmt.Fprintf(stdout, "store size of %d days (%d profiles): %d bytes; gzipped pprof files: %d bytes; ratio %.3f; the whole store %d bytes, %.0f a profile\n",
		days, days*storebench.PerDay, m.StoreBytes, m.GzipBytes, float64(m.StoreBytes)/float64(m.GzipBytes), m.TotalBytes, float64(m.TotalBytes)/float64(m.Profiles))
	fmt.Fprintf(stdout, "build: %d profiles in %.0f s, %.0f profiles/s; cpu-ms a profile: %.2f the builder's (generating and gzipping included), %.2f ClickHouse's\n",
		m.Profiles, m.BuildSeconds, float64(m.Profiles)/m.BuildSeconds, 1e3*m.BuildCPUSeconds/float64(m.Profiles), 1e3*m.ServerSeconds/float64(m.Profiles))
	return nil
}

func files(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("files", stderr)
	dir := fs.String("store", "", "the store's `directory`")
	last := fs.Duration("last", 8*time.Hour, "the `duration` of profiles, up to the last")
	out := fs.String("o", "", "the `directory` to write the files to")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := storebench.ReadManifest(*dir)
	if err != nil {
		return err
	}
	paths, err := m.WriteFiles(*out, *last)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d files\n", len(paths))
	return nil
}

// merge opens the store and merges the last of it, repeat times, and
// writes the merge to -o.
func merge(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("merge", stderr)
	bs := addBuiltStore(fs)
	last := fs.Duration("last", 8*time.Hour, "the `duration` to merge, up to the last profile")
	repeat := fs.Int("repeat", 5, "merge `n` times; the best time is told, and the first")
	out := fs.String("o", "", "write the merged profile to `file`")
	if err := parse(fs, args); err != nil {
		return err
	}
	t0 := time.Now()
	s, m, err := bs.open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	opened := time.Since(t0)
	var times, cpus []time.Duration
	var p interface{ Write(io.Writer) error }
	for range max(*repeat, 1) {
		t, c := time.Now(), cputime.Self()
		mp, err := s.Merge(ctx, m.Last(*last))
		if err != nil {
			return err
		}
		times, cpus, p = append(times, time.Since(t)), append(cpus, cputime.Self()-c), mp
	}
	if *out != "" {
		var b bytes.Buffer
		if err := p.Write(&b); err != nil {
			return err
		}
		if err := os.WriteFile(*out, b.Bytes(), 0o666); err != nil {
			return err
		}
	}
	first := times[0]
	slices.Sort(times)
	slices.Sort(cpus)
	fmt.Fprintf(stdout, "merge of the last %v (%d profiles): best of %d %s (cpu %s), first %s; opening the store %s\n",
		*last, int(*last/(10*time.Second)), len(times), ms(times[0]), ms(cpus[0]), ms(first), ms(opened))
	return nil
}

// totals opens the store and asks for the totals of the last of it by
// -step, with -focus, repeat times.
func totals(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("totals", stderr)
	bs := addBuiltStore(fs)
	last := fs.Duration("last", 168*time.Hour, "the `duration` to add up, up to the last profile")
	step := fs.Duration("step", time.Hour, "the `width` of each point")
	focus := fs.String("focus", "", "count only the samples of stacks with a frame that matches `regexp`")
	repeat := fs.Int("repeat", 5, "ask `n` times; the best time is told, and the first")
	if err := parse(fs, args); err != nil {
		return err
	}
	q := store.TotalsQuery{Step: *step}
	if *focus != "" {
		re, err := regexp.Compile(*focus)
		if err != nil {
			return fmt.Errorf("-focus: %w", err)
		}
		q.Focus = re
	}
	s, m, err := bs.open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	q.Selection = m.Last(*last)
	var times []time.Duration
	var points int
	for range max(*repeat, 1) {
		t := time.Now()
		ts, err := s.Totals(ctx, q)
		if err != nil {
			return err
		}
		times, points = append(times, time.Since(t)), 0
		for _, s := range ts {
			points += len(s.Points)
		}
	}
	first := times[0]
	slices.Sort(times)
	fmt.Fprintf(stdout, "totals of the last %v by %v, focus %q (%d points): best of %d %s, first %s\n",
		*last, *step, *focus, points, len(times), ms(times[0]), ms(first))
	return nil
}

// A builtStore is the flags of the commands that read a store storebench
// build made: its directory and, for a ClickHouse store, the URL of the
// servers storebench serve started on its data.
type builtStore struct{ dir, url *string }

func addBuiltStore(fs *flag.FlagSet) builtStore {
	return builtStore{
		dir: fs.String("store", "", "the store's `directory`"),
		url: fs.String("url", "", "the clickhouse:// `URL` of the servers serving the store's data (storebench serve)"),
	}
}

// open reads the store's manifest and opens it, through the stores table
// as perflab's commands do.
func (b builtStore) open(ctx context.Context) (store.Store, *storebench.Manifest, error) {
	m, err := storebench.ReadManifest(*b.dir)
	if err != nil {
		return nil, nil, err
	}
	spec := *b.dir
	if m.Backend == "clickhouse" {
		if *b.url == "" {
			return nil, nil, fmt.Errorf("%s: a ClickHouse store: -url, from storebench serve, is required", *b.dir)
		}
		spec = *b.url
	}
	s, err := stores.Open(ctx, spec, stores.Options{})
	return s, m, err
}

// write measures Write alone: the same 256 profiles (of -instances
// instances, one after another) written from -writers goroutines, one a
// Write as a server's pushes come, to a new
// store (with ClickHouse, new servers whose data is in a temporary
// directory, their CPU time counted).
func write(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("write", stderr)
	n := fs.Int("n", 4000, "profiles to write")
	backend := fs.String("backend", "dir", "the store: dir or clickhouse")
	shards := fs.Int("shards", 1, "ClickHouse servers, a cluster when more than one")
	writers := fs.Int("writers", 32, "goroutines writing")
	instances := fs.Int("instances", 1, "instances of the service the profiles come from, one after another")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *instances < 1 {
		fmt.Fprintln(stderr, "storebench write: -instances must be positive")
		return errUsage
	}
	f, err := fleetgen.New(fleetgen.Config{Instances: *instances})
	if err != nil {
		return err
	}
	ps := make([]store.Profile, 256)
	for i := range ps {
		if ps[i], err = f.Profile("cpu", i%*instances, i / *instances); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "storebench-write")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, c, stop, err := newStore(ctx, *backend, *shards, dir)
	if err != nil {
		return err
	}
	defer stop()
	before, events := storebench.ServerCPU(c), storebench.ServerEvents(c)
	wall, cpu, err := writeAll(ctx, s, *n, *writers, func(i int) (store.Profile, error) { return ps[i%len(ps)], nil })
	if err != nil {
		return err
	}
	srv := storebench.ServerCPU(c) - before
	each := func(d time.Duration) float64 { return float64(d) / float64(*n) / 1e6 }
	fmt.Fprintf(stdout, "write (%s, %d shards, %d instances): %d profiles in %.2f s from %d writers: %.0f profiles/s; %.0f profiles per CPU second (%.2f cpu-ms each: %.2f perflab's, %.2f ClickHouse's)",
		*backend, *shards, *instances, *n, wall.Seconds(), *writers, float64(*n)/wall.Seconds(), float64(*n)/(cpu+srv).Seconds(), each(cpu+srv), each(cpu), each(srv))
	if c != nil {
		after := storebench.ServerEvents(c)
		delta := func(event string) int64 { return after[event] - events[event] }
		fmt.Fprintf(stdout, "; ClickHouse: %d inserts, %.2f a profile; %d rows written into parts (the views' included), %d merged",
			delta("InsertQuery"), float64(delta("InsertQuery"))/float64(*n), delta("MergeTreeDataWriterRows"), delta("MergedRows"))
	}
	fmt.Fprintln(stdout)
	return nil
}

// newStore opens a new store of backend in dir, and returns it, its
// ClickHouse servers (nil for store/dirstore), and a function that closes
// it and stops them.
func newStore(ctx context.Context, backend string, shards int, dir string) (store.Store, *clickhousetest.Cluster, func(), error) {
	if backend == "dir" {
		s, err := dirstore.Open(dir, dirstore.Options{})
		if err != nil {
			return nil, nil, nil, err
		}
		return s, nil, func() { s.Close() }, nil
	}
	c, url, err := storebench.Serve(dir, shards)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := clickhouse.Open(ctx, url, store.Limits{})
	if err != nil {
		c.Stop()
		return nil, nil, nil, err
	}
	return s, c, func() { s.Close(); c.Stop() }, nil
}

// serve starts ClickHouse servers on the data of a store storebench
// build -backend clickhouse made, prints the store's URL, and stops them
// on SIGINT or SIGTERM.
func serve(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("serve", stderr)
	dir := fs.String("store", "", "the store's `directory`")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := storebench.ReadManifest(*dir)
	if err != nil {
		return err
	}
	if m.Backend != "clickhouse" {
		return fmt.Errorf("%s: not a ClickHouse store", *dir)
	}
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	c, url, err := storebench.Serve(*dir, m.Shards)
	if err != nil {
		return err
	}
	defer c.Stop()
	fmt.Fprintln(stdout, url)
	<-ctx.Done()
	return nil
}

// ingest writes a fleet's profiles, generated as they go, from 64
// goroutines: each round a profile of each instance.
func ingest(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("ingest", stderr)
	instances := fs.Int("instances", 1000, "instances of the service")
	n := fs.Int("n", 20000, "profiles to write")
	if err := parse(fs, args); err != nil {
		return err
	}
	f, err := fleetgen.New(fleetgen.Config{Instances: *instances, PIE: true})
	if err != nil {
		return err
	}
	gen := cputime.Self()
	for i := range 100 {
		if _, err := f.Profile("cpu", i%*instances, i / *instances); err != nil {
			return err
		}
	}
	gen = (cputime.Self() - gen) / 100
	dir, err := os.MkdirTemp("", "storebench-ingest")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := dirstore.Open(dir, dirstore.Options{Log: func(line string) { fmt.Fprintln(stderr, line) }})
	if err != nil {
		return err
	}
	defer s.Close()
	wall, cpu, err := writeAll(ctx, s, *n, 64, func(i int) (store.Profile, error) { return f.Profile("cpu", i%*instances, i / *instances) })
	if err != nil {
		return err
	}
	st, _ := s.Stats(ctx)
	fmt.Fprintf(stdout, "ingest of %d instances: %d profiles in %.1f s: %.0f profiles/s; %.2f cpu-ms each, of which %.2f to generate it; %d series, %d bytes on disk\n",
		*instances, *n, wall.Seconds(), float64(*n)/wall.Seconds(), float64(cpu)/float64(*n)/1e6, float64(gen)/1e6, st.Series, st.Bytes)
	return nil
}

// writeAll writes n profiles, profile(i) each, one a Write from writers
// goroutines, retrying on store.ErrBusy, and returns the time and CPU
// time it took.
func writeAll(ctx context.Context, s store.Store, n, writers int, profile func(int) (store.Profile, error)) (time.Duration, time.Duration, error) {
	var next atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	t, c := time.Now(), cputime.Self()
	for range writers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				p, err := profile(i)
				for err == nil {
					if err = s.Write(ctx, p); !isBusy(err) {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
				if err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(t), cputime.Self() - c, first
}

func isBusy(err error) bool { return errors.Is(err, store.ErrBusy) }
