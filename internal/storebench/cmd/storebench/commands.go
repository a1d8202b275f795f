package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/storebench"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
)

func build(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("build", stderr)
	cache := fs.String("cache", "", "the cache `directory` of built stores")
	days := fs.Int("days", 30, "days of profiles")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *cache == "" || *days < 1 {
		fmt.Fprintln(stderr, "storebench build: -cache is required, and -days must be positive")
		return errUsage
	}
	dir, _, err := storebench.Cached(ctx, *cache, *days, stderr)
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
	fmt.Fprintf(stdout, "store size of %d days (%d profiles): %d bytes; gzipped pprof files: %d bytes; ratio %.3f; build took %.0f s\n",
		min(m.Days, storebench.SizeDays), min(m.Days, storebench.SizeDays)*storebench.PerDay, m.StoreBytes, m.GzipBytes,
		float64(m.StoreBytes)/float64(m.GzipBytes), m.BuildSeconds)
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
	dir := fs.String("store", "", "the store's `directory`")
	last := fs.Duration("last", 8*time.Hour, "the `duration` to merge, up to the last profile")
	repeat := fs.Int("repeat", 5, "merge `n` times; the best time is told, and the first")
	out := fs.String("o", "", "write the merged profile to `file`")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, err := storebench.ReadManifest(*dir)
	if err != nil {
		return err
	}
	t0 := time.Now()
	s, err := dirstore.Open(*dir, dirstore.Options{})
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

// write measures Write alone: the same 256 profiles written from 32
// goroutines to a new store.
func write(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flags("write", stderr)
	n := fs.Int("n", 4000, "profiles to write")
	if err := parse(fs, args); err != nil {
		return err
	}
	f, err := storebench.Fleet()
	if err != nil {
		return err
	}
	ps := make([]store.Profile, 256)
	for i := range ps {
		if ps[i], err = f.Profile("cpu", 0, i); err != nil {
			return err
		}
	}
	dir, err := os.MkdirTemp("", "storebench-write")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	wall, cpu, err := writeAll(ctx, s, *n, 32, func(i int) (store.Profile, error) { return ps[i%len(ps)], nil })
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "write: %d profiles in %.2f s from 32 writers: %.0f profiles/s; %.0f profiles per CPU second (%.2f cpu-ms each)\n",
		*n, wall.Seconds(), float64(*n)/wall.Seconds(), float64(*n)/cpu.Seconds(), float64(cpu)/float64(*n)/1e6)
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
func writeAll(ctx context.Context, s *dirstore.Store, n, writers int, profile func(int) (store.Profile, error)) (time.Duration, time.Duration, error) {
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
