package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/perflab/perflab/investigate"
)

var investigateCmd = &command{
	name:     "investigate",
	summary:  "investigate a server: load, profiles, GC, goroutines and a trace, one report",
	synopsis: `perflab investigate [load flags] -url URL [-url URL]... [-pprof URL] [-o DIR] [-base DIR] -- PROGRAM [ARGS]`,
	doc: `
Starts PROGRAM with GODEBUG=gctrace=1 (its output goes to DIR/program.log),
waits until the first -url answers, warms it up, then loads each -url in
turn with perflab load's engine while it collects from -pprof a CPU
profile of the measured window, the allocations and heap growth over it,
goroutines at the start and the end, a short execution trace and the
blocking and mutex profiles (when the program enables them). It stops the
program with SIGTERM (SIGKILL after -grace) and writes to DIR every
artefact in its own format and report.json, report.txt and report.html:
throughput, latency, CPU top, allocation sites, bytes and objects per
request, GC cycles per 1000 requests and their CPU, goroutine groups, and
findings ranked by estimated effect. docs/run.md describes report.json.
"perflab run", its former name, still works.
`,
	examples: `
perflab investigate -m POST -c 100 -z 10s -url 'http://127.0.0.1:5000/search?term=covid-19&cnn=on&bbc=on&nyt=on' \
    -pprof http://127.0.0.1:6060/debug/pprof/ -o naive -- ./rsssearch -variant=naive
perflab investigate -m POST -c 100 -z 10s -url ... -o tuned -base naive -- ./rsssearch -variant=tuned
`,
	run: runInvestigate,
}

func runInvestigate(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("investigate")
	var f loadFlags
	f.register(fs)
	var urls stringList
	var o investigate.Options
	fs.Var(&urls, "url", "a `URL` to load; repeat for more, loaded in turn (loopback only unless -allow-remote)")
	fs.StringVar(&o.Pprof, "pprof", "", "the program's /debug/pprof/ (default: on the first -url's host)")
	fs.StringVar(&o.Dir, "o", "perflab-run", "where the artefacts and reports go (default perflab-run)")
	fs.StringVar(&o.Base, "base", "", "compare with the run in `DIR`: throughput and latency over -rounds with their noise judged, allocations and GC")
	fs.DurationVar(&o.Warmup, "warmup", 0, "load before measuring (default 1s; 0 for the default, -1s for none)")
	fs.IntVar(&o.Rounds, "rounds", investigate.DefaultRounds, "parts the measured load is cut into to judge noise")
	fs.IntVar(&o.TraceSeconds, "trace", 1, "length of the execution trace (default 1; 0 for none)")
	fs.DurationVar(&o.Wait, "wait", investigate.DefaultWait, "how long the program has to answer the first -url (default 30s)")
	fs.DurationVar(&o.Grace, "grace", investigate.DefaultGrace, "how long the program has to exit after SIGTERM (default 5s)")
	fs.BoolVar(&o.AllowRemote, "allow-remote", false, "allow URLs on other hosts than this one")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(urls) == 0 {
		return usageErrorf("-url: give at least one URL to load")
	}
	if fs.NArg() == 0 {
		return usageErrorf("no program: give it after --, e.g. perflab investigate -url http://127.0.0.1:8080/ -- ./server")
	}
	if o.Rounds < 1 || o.TraceSeconds < 0 || o.Wait <= 0 || o.Grace <= 0 {
		return usageErrorf("-rounds must be at least 1, -trace at least 0, -wait and -grace positive")
	}
	if o.TraceSeconds == 0 {
		o.TraceSeconds = -1 // none
	}
	cfg, err := f.config(urls[0])
	if err != nil {
		return err
	}
	f.rateNote(stderr, "investigate")
	o.Load, o.URLs, o.Program, o.Args = cfg, urls, fs.Arg(0), fs.Args()[1:]
	o.Progress = progressLine(stderr)
	if o.Warmup < 0 {
		o.Warmup = -time.Nanosecond
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(f.cpus)) // the generator's share, as in perflab load
	rep, err := investigate.Run(ctx, o)
	if errors.Is(err, investigate.ErrUsage) {
		return usageErrorf("%w", err)
	}
	if rep != nil {
		if werr := rep.WriteText(stdout); werr != nil && err == nil {
			err = werr
		}
		if ferr := f.failOn.Check(rep.LoadResults()...); err == nil && ferr != nil {
			err = fmt.Errorf("investigate: %w", ferr)
		}
	}
	return err
}
