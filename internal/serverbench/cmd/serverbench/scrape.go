package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/serverbench"
)

// scrape measures the scraper: K targets, a server scraping them every
// interval; once each has served a round, the server's CPU time over
// the next intervals.
func scrape(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, bin := flags("scrape", stderr)
	k := fs.Int("targets", 100, "targets to scrape")
	interval := fs.Duration("interval", 5*time.Second, "the scrape interval, and the seconds of a CPU profile")
	intervals := fs.Int("intervals", 3, "intervals measured, after the first")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *k < 1 || *interval < time.Second || *intervals < 1 {
		fmt.Fprintln(stderr, "serverbench scrape: want -targets >= 1, -interval >= 1s, -intervals >= 1")
		return errUsage
	}
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		return err
	}
	ps, err := serverbench.TargetProfiles(f, 16)
	if err != nil {
		return err
	}
	targets, err := serverbench.ServeTargets(*k, ps)
	if err != nil {
		return err
	}
	defer targets.Close()
	dir, err := os.MkdirTemp("", "serverbench-scrape")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	config := filepath.Join(dir, "scrape.yaml")
	if err := os.WriteFile(config, []byte(targets.Config(f.Config().Service, *interval)), 0o666); err != nil {
		return err
	}
	srv, err := serverbench.StartServer(ctx, *bin, "-store", filepath.Join(dir, "store"), "-http", "127.0.0.1:0", "-config", config)
	if err != nil {
		return err
	}
	defer srv.Stop()
	// A round: every target has been scraped its three kinds (CPU last).
	warm := time.Now().Add(2**interval + 30*time.Second)
	for targets.Served() < int64(3**k) {
		if time.Now().After(warm) {
			return fmt.Errorf("the server scraped %d profiles of %d targets in %v: %s", targets.Served(), *k, 2**interval+30*time.Second, srv.Tail())
		}
		time.Sleep(100 * time.Millisecond)
	}
	u0, err := srv.Usage()
	if err != nil {
		return err
	}
	n0, t0 := targets.Served(), time.Now()
	select {
	case <-time.After(time.Duration(*intervals) * *interval):
	case <-ctx.Done():
		return ctx.Err()
	}
	u1, err := srv.Usage()
	if err != nil {
		return err
	}
	n, wall, cpu := targets.Served()-n0, time.Since(t0), u1.CPU-u0.CPU
	due := 3 * *k * int(wall / *interval)
	fmt.Fprintf(stdout, "scrape of %d targets every %v: %d profiles in %.1f s (%.0f/s, of %d due); server CPU %.2f s: %.2f ms per scrape, %.3f ms per target-second, %.1f%% of a core; server RSS %.0f MB, peak %.0f MB\n",
		*k, *interval, n, wall.Seconds(), float64(n)/wall.Seconds(), due, cpu.Seconds(),
		float64(cpu)/1e6/float64(n), float64(cpu)/1e6/(float64(*k)*wall.Seconds()), 100*cpu.Seconds()/wall.Seconds(), mb(u1.RSS), mb(u1.PeakRSS))
	return srv.Stop()
}
