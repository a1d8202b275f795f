package main

import (
	"context"
	"io"
	"os"
	"slices"
	"time"

	"github.com/perflab/perflab/examples/havlak"
	"github.com/perflab/perflab/examples/rsssearch"
	"github.com/perflab/perflab/internal/demo"
	"github.com/perflab/perflab/internal/term"
)

var demoCmd = &command{
	name:    "demo",
	summary: "profile and fix the Havlak loop finder, end to end",
	synopsis: `perflab demo [-reps=N] [-o DIR]
perflab demo [-docs=N] [-o DIR] trace
perflab demo rsssearch [-o DIR] [-z DUR]`,
	doc: `
Runs the case study of the Go blog's "Profiling Go Programs" for real:
Hundt's Havlak loop finder, compiled into perflab, first in its naive
form under the CPU and heap profilers. Then it reads the profiles as a
performance engineer would (the top functions, the hottest function's
annotated source, the biggest allocation sites and the compiler's
reasons for them, a verdict naming them), runs the tuned loop finder and
compares time, peak memory and allocations before and after. Each report
is printed under the perflab command line ("$ perflab top ...") that
prints it from the kept files. It keeps the profiles in a directory
(./perflab-demo unless -o says otherwise), with the workload's source in
its src/ (the profiles name those files, so list and escapes find them
anywhere), and ends by printing perflab commands to try on them, with the
functions the profiles name.

perflab demo trace tells the execution-tracing story of the Ultimate Go
notes instead: examples/tracefreq searches 4000 generated RSS documents
for "president" with one goroutine, one per document, one per P, and one
per P with tasks and regions; each runs under the execution tracer and
perflab trace reads what a profile cannot show: one P busy at a time, then
all of them. The traces stay in DIR (default perflab-demo-trace).

perflab demo rsssearch runs the Ultimate Go article's RSS search service
(examples/rsssearch, served by perflab itself) under perflab investigate: the
naive variant, then the tuned one with the naive run as its base. It keeps
both report directories, DIR/naive and DIR/tuned (a new temporary
directory unless -o says otherwise), and prints the two headlines side by
side; -z sets the load of each variant (default 10s).
`,
	examples: `
perflab demo
perflab top -cum -nodecount=20 perflab-demo/naive.cpu.pprof
perflab demo -reps=50 -o havlak-profiles
perflab demo trace
perflab demo rsssearch -o rss
`,
	run: runDemo,
}

func runDemo(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 && args[0] == "rsssearch" {
		return runRSSDemo(ctx, stdout, stderr, args[1:])
	}
	if len(args) > 0 && args[0] == "trace" { // perflab demo trace [flags] reads as [flags] trace
		args = append(slices.Clone(args[1:]), "trace")
	}
	fs := newFlagSet("demo")
	reps := fs.Int("reps", demo.DefaultReps, "repetitions of loop finding after the first search (the default finishes within a minute on two cores; the benchmark's own is 50)")
	dir := fs.String("o", "", "keep the profiles in `DIR` (default perflab-demo; perflab-demo-trace for trace): naive.cpu.pprof, naive.allocs.pprof and tuned.cpu.pprof")
	docs := fs.Int("docs", demo.DefaultDocs, "documents the trace demo searches")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 1 && fs.Arg(0) == "trace" {
		if *dir == "" {
			*dir = "perflab-demo-trace"
		}
		if *docs < 1 || *docs > 1000000 {
			return usageErrorf("-docs=%d: want 1 to 1000000", *docs)
		}
		_, err := demo.RunTrace(ctx, stdout, demo.TraceOptions{Docs: *docs, TraceDir: *dir, Progress: progressLine(stderr)})
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("demo takes no arguments but trace")
	}
	if *dir == "" && !flagSet(fs, "o") {
		*dir = "perflab-demo"
	}
	if *dir == "" {
		return usageErrorf("-o: want a directory")
	}
	if *reps < 0 || *reps > 10*havlak.Repetitions {
		return usageErrorf("-reps=%d: want 0 to %d", *reps, 10*havlak.Repetitions)
	}
	_, err := demo.Run(ctx, stdout, demo.Options{Reps: *reps, ProfileDir: *dir, Progress: progressLine(stderr)})
	return err
}

// progressLine draws a library's progress reports as one line on w, when
// w is a terminal; "" clears it.
func progressLine(w io.Writer) func(string) {
	line := term.NewLine(w)
	return func(status string) {
		if status == "" {
			line.Clear()
			return
		}
		line.Printf("%s", status)
	}
}

// runRSSDemo is perflab demo rsssearch. With -serve first it is the
// server the demo runs: perflab runs the service itself, so the demo
// needs no Go toolchain.
func runRSSDemo(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) > 0 && args[0] == "-serve" {
		return rsssearch.Command(ctx, stderr, args[1:])
	}
	fs := newFlagSet("demo")
	dir := fs.String("o", "", "keep the profiles in `DIR` (default perflab-demo): naive.cpu.pprof, naive.allocs.pprof and tuned.cpu.pprof")
	load := fs.Duration("z", demo.DefaultRSSLoad, "the load of each variant")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("demo rsssearch takes no arguments")
	}
	if *load <= 0 || *load > time.Hour {
		return usageErrorf("-z %v: want a duration up to an hour", *load)
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	_, err = demo.RSSSearch(ctx, stdout, demo.RSSOptions{Dir: *dir, Load: *load,
		Server: []string{self, "demo", "rsssearch", "-serve"}, Progress: progressLine(stderr)})
	return err
}
