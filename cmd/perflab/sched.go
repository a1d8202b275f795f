package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/godebug"
)

var schedCmd = &command{
	name:    "sched",
	summary: "summarise GODEBUG=schedtrace output, or run a program under it",
	synopsis: `perflab sched [flags] [FILE|-]
perflab sched [flags] -- PROGRAM [ARGS...]`,
	doc: `
Reads the lines GODEBUG=schedtrace=MS (and scheddetail=1) make the Go
runtime write to standard error and summarises them: GOMAXPROCS, the share
of idle Ps, threads and spinning threads, global and per-P run-queue
lengths over time (max, p99, mean), and a verdict: "saturated" when every P
is busy and goroutines queue for one in most samples, "busy", "headroom" or
"idle" otherwise, and whether run queues are imbalanced across Ps. With
scheddetail=1 it also counts goroutines by wait reason.

With -- it runs PROGRAM with schedtrace merged into any GODEBUG it already
has, passes its standard output and error through (without the trace lines
unless -v), prints the summary when the program exits or on Ctrl-C, and
exits with the program's status. "go test" and "go run" are built first
and only the binary is traced, as with perflab gc. A trace of several
processes (SCHED 0ms again) is summarised process by process.
`,
	examples: `
GODEBUG=schedtrace=1000 ./server 2> sched.log; perflab sched sched.log
perflab sched -interval 100ms -html sched.html -- ./server
`,
	run: runSched,
}

func runSched(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("sched")
	flags := addGodebugFlags(fs)
	interval := fs.Duration("interval", time.Second, "with --, the schedtrace period (at least 1ms)")
	detail := fs.Bool("detail", false, "with --, also set scheddetail=1")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *interval < time.Millisecond {
		return usageErrorf("-interval %v: must be at least 1ms", *interval)
	}
	settings := []string{fmt.Sprintf("schedtrace=%d", interval.Milliseconds())}
	if *detail {
		settings = append(settings, "scheddetail=1")
	}
	var a godebug.SchedAnalyzer
	progress := func() string { return fmt.Sprintf("sched: %d samples", a.Samples()) }
	r := &godebugReader{cmd: "sched", flags: flags, settings: settings, stdin: stdin, stdout: stdout, stderr: stderr, handle: a.Add, progress: progress}
	tr, err := r.read(ctx, fs, args)
	if err != nil {
		return err
	}
	sum := a.Summary()
	if !tr.ran && sum.Samples == 0 {
		return fmt.Errorf("%s: no schedtrace lines (run the program with GODEBUG=schedtrace=1000)", tr.name)
	}
	charts := func() []chart.Chart { return schedCharts(a.Points()) }
	if err := writeReport(flags, stdout, sum, sum.WriteText, "perflab sched: "+tr.name, charts); err != nil {
		return err
	}
	return tr.exit()
}
