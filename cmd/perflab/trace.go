package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/program"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/profiles"
)

var traceCmd = &command{
	name:    "trace",
	summary: "summarise an execution trace of any size in one streaming pass",
	synopsis: `perflab trace [flags] SOURCE
perflab trace [flags] -- PROGRAM [ARGS...]`,
	doc: `
Reads an execution trace (runtime/trace, go test -trace, collect's
trace.out or a flight-recorder snapshot; Go 1.22 or later) in one pass,
in memory bounded whatever its length, and summarises it: duration,
GOMAXPROCS, the mean number of Ps running goroutines and its course over
time, goroutines created and most alive at once, the time of all
goroutines by state (running, runnable, blocked on sync, channels, select,
network, syscalls, sleep, GC assist), GC cycles and stop-the-world pauses,
minimum mutator utilization at 1ms, 10ms and 100ms, the top stacks of each
kind of blocking, tasks and regions with latency percentiles, and
verdicts in plain words.

SOURCE is a file, - for standard input, or a URL such as
http://127.0.0.1:6060/debug/pprof/trace (with -seconds). With -- it runs
PROGRAM with PERFLAB_PROFILE=trace (programs that call collect.Start write
a trace; "go test PKG" is built and run with -test.trace), then
summarises the trace and exits with the program's status.

A truncated trace is read up to its last complete generation; the summary
says how much was lost.
`,
	examples: `
perflab trace trace.out
perflab trace -pprof=sync -o sync.pprof trace.out && perflab top sync.pprof
perflab trace -seconds 5 http://127.0.0.1:6060/debug/pprof/trace
perflab trace -base before.out after.out
perflab trace -html trace.html -- go test -run TestBig ./pkg
`,
	run: runTrace,
}

// execTraceFlags are trace's own flags, for execution traces (godebugFlags
// are gc's and sched's, for GODEBUG traces).
type execTraceFlags struct {
	json     bool
	out      string
	pprof    string
	base     string
	html     string
	perfetto string
	timeline string
}

func runTrace(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("trace")
	var o execTraceFlags
	fs.BoolVar(&o.json, "json", false, "print the summary as JSON (schema in docs/trace.md)")
	fs.StringVar(&o.out, "o", "", "write the summary (or the -pprof profile) to `FILE`")
	fs.StringVar(&o.pprof, "pprof", "", "write a pprof profile instead, as go tool trace -pprof: `KIND` net, sync, syscall or sched")
	fs.StringVar(&o.base, "base", "", "compare with the trace `OLD`, side by side")
	fs.StringVar(&o.html, "html", "", "also write an HTML report with charts of busy Ps, goroutines and heap over time to `FILE`")
	fs.StringVar(&o.perfetto, "perfetto", "", "also write the trace in Perfetto's format (ui.perfetto.dev) to `FILE`")
	fs.StringVar(&o.timeline, "timeline", "", "also write a self-contained HTML timeline to `FILE`: per-P busy lanes, GC and stop-the-world bands, goroutines alive")
	sf := addSourceFlags(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !flagSet(fs, "max_bytes") {
		sf.maxBytes = 1 << 62 // streamed: no need to bound the length
	}
	opts, err := sf.options(stdin, stderr)
	if err != nil {
		return err
	}
	kind := exectrace.ProfileKind(-1)
	if o.pprof != "" {
		if kind, err = exectrace.ParseProfileKind(o.pprof); err != nil {
			return usageErrorf("-pprof: %w", err)
		}
		if o.json || o.base != "" {
			return usageErrorf("-pprof writes a profile: it does not go with -json or -base")
		}
	}
	if o.json && o.base != "" {
		return usageErrorf("-base prints a comparison: it does not go with -json")
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// The live heap is about one generation of the trace; without a
		// limit the heap grows to twice that before a GC.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(traceMemoryLimit))
	}
	src, status, err := traceSource(ctx, fs, args, stdio{stdin, stdout, stderr})
	if err != nil {
		return err
	}
	if src.cleanup != nil {
		defer src.cleanup()
	}
	res, err := analyzeTrace(ctx, src.name, opts, &o, stderr)
	if err != nil {
		return err
	}
	if kind >= 0 {
		err = writeOut(o.out, stdout, func(w io.Writer) error { return res.a.WriteProfile(w, kind) })
	} else {
		err = writeTraceReport(ctx, res, &o, opts, stdout, stderr)
	}
	if err == nil && res.truncated != nil {
		fmt.Fprintf(stderr, "perflab trace: %s: %v\n", res.name, res.truncated)
	}
	if err == nil && status != 0 {
		return exitStatus(status)
	}
	return err
}

// flagSet reports whether the flag name was given.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// A traceInput is where the trace comes from: a source for profiles.Open,
// and what to clean up after a program's run.
type traceInput struct {
	name    string
	cleanup func()
}

// traceSource returns the one source on the command line, or runs the
// program after -- and returns the trace it wrote and its exit status.
func traceSource(ctx context.Context, fs *flag.FlagSet, args []string, std stdio) (traceInput, int, error) {
	rest := fs.Args()
	if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
		if len(rest) == 0 {
			return traceInput{}, 0, usageErrorf("-- needs a program to run")
		}
		return runTraced(ctx, rest, std)
	}
	if len(rest) != 1 {
		return traceInput{}, 0, usageErrorf("want one trace (a file, - or a URL), got %d arguments (put a program to run after --)", len(rest))
	}
	return traceInput{name: rest[0]}, 0, nil
}

// stdio is a program's standard input, output and error.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// runTraced runs argv with the tracer on, its standard streams those of
// std, and returns the trace it wrote.
func runTraced(ctx context.Context, argv []string, std stdio) (traceInput, int, error) {
	tmp, err := os.MkdirTemp("", "perflab-trace-")
	if err != nil {
		return traceInput{}, 0, err
	}
	in := traceInput{name: filepath.Join(tmp, collect.Trace.FileName()), cleanup: func() { os.RemoveAll(tmp) }}
	plan, err := program.Parse(argv)
	if err != nil {
		in.cleanup()
		return traceInput{}, 0, usageErrorf("%w", err)
	}
	name := plan.Name()
	argv, dir, err := plan.Build(ctx, tmp, std.err)
	if err != nil {
		in.cleanup()
		return traceInput{}, 0, err
	}
	if plan.GoTest() {
		argv = append(argv[:1:1], append([]string{"-test.trace=" + in.name}, argv[1:]...)...)
	}
	proc, err := program.Start(ctx, program.Config{Argv: argv, Dir: dir, Stdin: std.in, Stdout: std.out, Stderr: std.err,
		Setenv: []string{collect.EnvProfile + "=trace", collect.EnvProfileDir + "=" + tmp}})
	if err != nil {
		in.cleanup()
		return traceInput{}, 0, err
	}
	status, _, err := proc.Wait()
	if err != nil {
		in.cleanup()
		return traceInput{}, 0, fmt.Errorf("running %s: %w", name, err)
	}
	if _, err := os.Stat(in.name); err != nil {
		in.cleanup()
		return traceInput{}, 0, fmt.Errorf("%s wrote no trace (exit status %d): a program must call collect.Start to be traced with --", name, status)
	}
	return in, status, nil
}

// A traceResult is what reading a trace gave.
type traceResult struct {
	name      string
	a         *exectrace.Analyzer
	tiler     *exectrace.Tiler         // with -timeline
	spans     *exectrace.SpanCollector // with -timeline
	sum       *exectrace.Summary
	info      exectrace.Info
	truncated error
}

// analyzeTrace reads the trace at source: a file a few generations at a
// time, one per core (exectrace.Analyze), else in one pass, writing
// -perfetto and -timeline on the way.
func analyzeTrace(ctx context.Context, source string, opts profiles.Options, o *execTraceFlags, stderr io.Writer) (*traceResult, error) {
	src, err := profiles.Open(ctx, source, opts)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	line := term.NewLine(stderr)
	if line.Enabled() {
		defer line.Clear()
	}
	res := &traceResult{name: src.Name}
	if f, size, ok := src.File(); ok && (o == nil || o.perfetto == "" && o.timeline == "") {
		if line.Enabled() {
			f = &readAtProgress{readProgress: readProgress{line: line, name: src.Name}, r: f}
		}
		res.a, res.info, err = exectrace.Analyze(ctx, f, size, runtime.GOMAXPROCS(0))
	} else {
		err = readTrace(src, line, o, res)
	}
	var te *exectrace.TruncatedError
	switch {
	case errors.As(err, &te):
		res.truncated = err
	case err != nil:
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	res.sum = res.a.Finish()
	return res, nil
}

// readTrace reads the trace in src in one pass into res, with the sinks
// of -perfetto and -timeline.
func readTrace(src *profiles.Source, line *term.Line, o *execTraceFlags, res *traceResult) error {
	in := io.Reader(src)
	if line.Enabled() {
		in = &readProgress{r: src, line: line, name: src.Name}
	}
	res.a = exectrace.NewAnalyzer()
	sinks := []exectrace.Sink{res.a}
	var pw *perfettoFile
	if o != nil && o.perfetto != "" {
		var err error
		if pw, err = newPerfettoFile(o.perfetto); err != nil {
			return err
		}
		defer pw.abort()
		sinks = append(sinks, pw.w)
	}
	if o != nil && o.timeline != "" {
		res.tiler = exectrace.NewTiler(0, 0, timelineColumns)
		res.spans = exectrace.NewSpanCollector(0, timelineSpans)
		sinks = append(sinks, res.tiler, res.spans)
	}
	var err error
	res.info, err = exectrace.Read(in, sinks...)
	var te *exectrace.TruncatedError
	if (err == nil || errors.As(err, &te)) && pw != nil {
		if err := pw.commit(); err != nil {
			return err
		}
	}
	return err
}

// A readProgress shows on a terminal how much of the trace was read.
type readProgress struct {
	r    io.Reader
	line *term.Line
	name string
	n    int64
	last time.Time
}

// A readAtProgress is a readProgress for a file read in parts by several
// goroutines at once.
type readAtProgress struct {
	readProgress
	r  io.ReaderAt
	mu sync.Mutex
}

func (p *readAtProgress) ReadAt(b []byte, off int64) (int, error) {
	n, err := p.r.ReadAt(b, off)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count(n)
	return n, err
}

func (p *readProgress) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.count(n)
	return n, err
}

// count adds n bytes read and shows the total, five times a second.
func (p *readProgress) count(n int) {
	p.n += int64(n)
	if time.Since(p.last) > 200*time.Millisecond {
		p.last = time.Now()
		p.line.Printf("trace: %s: %d MB read", p.name, p.n>>20)
	}
}

// traceMemoryLimit is the soft memory limit perflab trace sets for itself
// (GOMEMLIMIT overrides it): it keeps -json under 200 MB on the 200 MB
// trace of scripts/bench-trace at no cost in time.
const traceMemoryLimit = 160 << 20

// timelineColumns is the resolution of -timeline: columns over the whole
// trace; timelineSpans how many of the longest tasks and regions it draws.
const (
	timelineColumns = 4000
	timelineSpans   = 2000
)

// writeOut writes with write to FILE, atomically, or to stdout.
func writeOut(file string, stdout io.Writer, write func(io.Writer) error) error {
	if file != "" {
		return atomicfile.Write(file, write)
	}
	return write(stdout)
}
