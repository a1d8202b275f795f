package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/serverbench"
)

// push measures /ingest: the pushes are encoded once, then each repeat
// starts a server on a new store, pushes the first round (every series
// new), then the others, and reads the server's CPU time around them.
func push(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, bin := flags("push", stderr)
	instances := fs.Int("instances", 1000, "instances of the service, a series each")
	rounds := fs.Int("rounds", 4, "profiles of each instance: the first round is told apart")
	conns := fs.Int("c", 16, "pushes at once")
	repeat := fs.Int("repeat", 3, "runs, each on a new server and store")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *instances < 1 || *rounds < 2 || *repeat < 1 {
		fmt.Fprintln(stderr, "serverbench push: want -instances >= 1, -rounds >= 2, -repeat >= 1")
		return errUsage
	}
	interval := fleetgen.Default.Interval
	start := time.Now().Add(-time.Duration(*rounds) * interval).Truncate(interval)
	f, err := fleetgen.New(fleetgen.Config{Instances: *instances, PIE: true, Start: start})
	if err != nil {
		return err
	}
	t := time.Now()
	pushes, err := serverbench.Pushes(f, *rounds)
	if err != nil {
		return err
	}
	var bytes int
	for _, p := range pushes {
		bytes += len(p.Body)
	}
	fmt.Fprintf(stderr, "serverbench push: %d pushes encoded in %.1f s, %.1f kB each\n", len(pushes), time.Since(t).Seconds(), float64(bytes)/float64(len(pushes))/1024)
	var perCPU, rates, rss []float64
	for range *repeat {
		r, err := pushOnce(ctx, *bin, pushes, *instances, *conns)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, r)
		perCPU, rates, rss = append(perCPU, r.perCPU()), append(rates, r.rate()), append(rss, mb(r.end.PeakRSS))
	}
	fmt.Fprintf(stdout, "push summary: %d instances, %d profiles a run (%d after the first round), %d runs: %s profiles per server CPU second (best %.0f); %s profiles/s; server peak RSS %s MB (worst %.0f)\n",
		*instances, len(pushes), len(pushes)-*instances, *repeat, span(perCPU, "%.0f"), slices.Max(perCPU), span(rates, "%.0f"), span(rss, "%.0f"), slices.Max(rss))
	return nil
}

// pushRun is one run's figures.
type pushRun struct {
	first, rest       serverbench.Result
	start, mid, end   serverbench.Usage
	instances, pushes int
}

func (r pushRun) perCPU() float64 { return float64(r.rest.Sent) / (r.end.CPU - r.mid.CPU).Seconds() }
func (r pushRun) rate() float64   { return float64(r.rest.Sent) / r.rest.Wall.Seconds() }

func (r pushRun) String() string {
	firstCPU := (r.mid.CPU - r.start.CPU).Seconds()
	return fmt.Sprintf("push: first round %d profiles in %.2f s, server CPU %.2f s (%.0f profiles per CPU second); then %d profiles in %.2f s (%.0f profiles/s), server CPU %.2f s: %.0f profiles per CPU second; %d retries (busy); server RSS %.0f MB, peak %.0f MB",
		r.first.Sent, r.first.Wall.Seconds(), firstCPU, float64(r.first.Sent)/firstCPU,
		r.rest.Sent, r.rest.Wall.Seconds(), r.rate(), (r.end.CPU - r.mid.CPU).Seconds(), r.perCPU(),
		r.first.Retries+r.rest.Retries, mb(r.end.RSS), mb(r.end.PeakRSS))
}

// pushOnce starts a server on a new store, pushes, stops it.
func pushOnce(ctx context.Context, bin string, pushes []serverbench.Push, instances, conns int) (r pushRun, err error) {
	dir, err := os.MkdirTemp("", "serverbench-push")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	srv, err := serverbench.StartServer(ctx, bin, "-store", dir, "-http", "127.0.0.1:0")
	if err != nil {
		return r, err
	}
	defer func() {
		if serr := srv.Stop(); err == nil {
			err = serr
		}
	}()
	if r.start, err = srv.Usage(); err != nil {
		return r, err
	}
	if r.first, err = serverbench.Run(ctx, srv.URL, pushes[:instances], conns); err != nil {
		return r, err
	}
	if r.mid, err = srv.Usage(); err != nil {
		return r, err
	}
	if r.rest, err = serverbench.Run(ctx, srv.URL, pushes[instances:], conns); err != nil {
		return r, err
	}
	r.end, err = srv.Usage()
	return r, err
}
