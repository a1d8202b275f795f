package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/examples/havlak"
	"github.com/perflab/perflab/internal/units"
	"github.com/perflab/perflab/report"
)

// Options configure Run.
type Options struct {
	// Reps is the number of repetitions of loop finding after the first
	// search; the benchmark's own is havlak.Repetitions (50), perflab
	// demo's default DefaultReps.
	Reps int
	// ProfileDir, if not empty, receives the profiles as naive.cpu.pprof,
	// naive.allocs.pprof and tuned.cpu.pprof, and the workload's source
	// in src/, which the profiles name; the demo ends by printing perflab
	// commands to try on them (Result.Next). Each report the demo prints
	// is that of the perflab command line printed above it, run on these
	// files. Without ProfileDir they are written to a temporary
	// directory, removed at the end.
	ProfileDir string
	// Progress, if not nil, is told what the demo is doing while a run
	// goes on ("naive: 3 of 21 searches done, 1.2s"), and "" when that
	// run is over, so that a command can draw it as a progress line.
	Progress func(status string)
}

// DefaultReps keeps the demo under a minute on two cores: the naive
// finder takes about a third of a second of CPU per search.
const DefaultReps = 20

// A Result holds what Run measured and concluded.
type Result struct {
	Naive, Tuned *Measurement
	Shares       []Share // CPU time of the naive run by kind of work, biggest first
	Hottest      string  // the workload function with the most CPU time attributed (full name)
	Sites        []Site  // the naive run's allocation sites, biggest first
	// Escapes is perflab escapes on the naive run: its allocation sites
	// with the compiler's reasons (BuildError set when it could not build
	// the workload, e.g. without the go command).
	Escapes *compilenotes.Analysis
	Verdict string
	Next    []string // perflab command lines to try on the profiles in ProfileDir
}

// Run performs the demo, writing the report to w.
func Run(ctx context.Context, w io.Writer, opts Options) (*Result, error) {
	if opts.Reps < 0 {
		return nil, fmt.Errorf("repetitions: %d is negative", opts.Reps)
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	if opts.ProfileDir != "" {
		if err := os.MkdirAll(opts.ProfileDir, 0o755); err != nil {
			return nil, err // before minutes of work, not after
		}
	}
	d := &demoRun{w: w, opts: opts, res: new(Result), dir: opts.ProfileDir}
	if d.dir == "" {
		tmp, err := os.MkdirTemp("", "perflab-demo-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		d.dir = tmp
	}
	for _, step := range []func(context.Context) error{d.runNaive, d.analyse, d.runTuned} {
		if err := step(ctx); err != nil {
			d.opts.Progress("")
			return nil, err
		}
	}
	return d.res, nil
}

// demoRun is one Run in progress.
type demoRun struct {
	w      io.Writer
	opts   Options
	res    *Result
	dir    string // where the profiles and the source are written
	cpu    *profile.Profile
	allocs *profile.Profile
}

func (d *demoRun) printf(format string, args ...any) { fmt.Fprintf(d.w, format, args...) }

func (d *demoRun) section(title string) { d.printf("\n== %s\n\n", title) }

// command prints the perflab command line whose output follows.
func (d *demoRun) command(args ...string) {
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	d.printf("$ perflab %s\n", strings.Join(args, " "))
}

// file is the path of the demo's file name in its directory, as the
// commands it prints name it.
func (d *demoRun) file(name string) string { return filepath.Join(d.dir, name) }

// progress returns the callback that shows which search is running.
func (d *demoRun) progress(name string) func(done, total int) {
	start := time.Now()
	return func(done, total int) {
		d.opts.Progress(fmt.Sprintf("%s: %d of %d searches done, %.1fs", name, done, total, time.Since(start).Seconds()))
	}
}

func (d *demoRun) runNaive(ctx context.Context) error {
	reps := d.opts.Reps
	d.printf("perflab demo: the Go blog's \"Profiling Go Programs\", run for real on this machine.\n")
	d.printf("Workload: Hundt's Havlak loop finder (examples/havlak), compiled into perflab.\n")
	d.printf("Each run: 15,000 warm-up searches, the 76,000-loop graph, 1 search + %d repetitions", reps)
	if reps != havlak.Repetitions {
		d.printf(" (the benchmark does %d; perflab demo -reps=%d runs it in full)", havlak.Repetitions, havlak.Repetitions)
	}
	d.printf(".\n")
	d.section("1. The naive loop finder (the original's maps), under the CPU and heap profilers")
	m, err := measure(ctx, havlak.Naive, reps, d.progress("naive"))
	d.opts.Progress("")
	if err != nil {
		return err
	}
	d.res.Naive = m
	d.printf("# of loops: %d (including 1 artificial root node)\n", m.Loops)
	d.printf("took %s, %s allocated in %s objects\n", units.Duration(m.Wall), units.Bytes(int64(m.AllocBytes)), countText(m.Allocs))

	runtime.GC() // the allocs profile is as of the last collection
	var allocs bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&allocs, 0); err != nil {
		return fmt.Errorf("writing the allocation profile: %w", err)
	}
	if d.cpu, err = d.save(naiveCPUFile, m.CPUProfile); err != nil {
		return fmt.Errorf("the CPU profile: %w", err)
	}
	if d.allocs, err = d.save(naiveAllocsFile, allocs.Bytes()); err != nil {
		return fmt.Errorf("the allocation profile: %w", err)
	}
	if d.opts.ProfileDir != "" {
		d.printf("profiles written to %s, the workload's source to %s\n", d.dir, filepath.Join(d.dir, srcDir))
	}
	return nil
}

// save writes the profile data to the demo's directory as name, its
// workload functions naming the copy of the source there (written on the
// first call), and returns it as written.
func (d *demoRun) save(name string, data []byte) (*profile.Profile, error) {
	src, err := writeSource(d.dir)
	if err != nil {
		return nil, err
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, err
	}
	pointToSource(p, src)
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		return nil, err
	}
	if err := os.WriteFile(d.file(name), buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return profile.ParseData(buf.Bytes()) // as the commands will read it
}

func (d *demoRun) analyse(ctx context.Context) error {
	cpu, allocs := d.file(naiveCPUFile), d.file(naiveAllocsFile)
	d.section("2. Where the CPU time goes (the same report as go tool pprof -top -nodecount=12 " + shellQuote(cpu) + ")")
	d.command("top", "-nodecount=12", cpu)
	o := report.DefaultOptions()
	o.NodeCount = 12
	if err := report.Generate(d.w, d.cpu.Copy(), report.Top, o); err != nil {
		return fmt.Errorf("top: %w", err)
	}

	d.res.Shares, _ = classify(d.cpu)
	hot, frac := hottest(d.cpu)
	d.res.Hottest = hot
	if hot == "" {
		return errors.New("the CPU profile holds no sample of the workload; was it too short?")
	}
	d.section(fmt.Sprintf("3. The hottest function of the workload, %s (%.0f%% of CPU time in its code and the runtime calls it makes)", shortName(hot), 100*frac))
	o = report.DefaultOptions()
	o.Symbol = "^" + regexp.QuoteMeta(hot) + "$"
	d.command("list", o.Symbol, cpu)
	if err := report.Generate(d.w, d.cpu.Copy(), report.List, o); err != nil {
		return fmt.Errorf("list: %w", err)
	}

	d.section("4. The biggest allocation sites")
	o = report.DefaultOptions()
	o.NodeCount, o.SampleIndex, o.Granularity = 8, "alloc_space", "lines"
	o.Show = `examples/havlak\.`
	d.command("top", "-nodecount=8", "-sample_index=alloc_space", "-lines", "-show="+o.Show, allocs)
	if err := report.Generate(d.w, d.allocs.Copy(), report.Top, o); err != nil {
		return fmt.Errorf("top of allocations: %w", err)
	}
	sites, err := allocSites(d.allocs)
	if err != nil {
		return err
	}
	d.res.Sites = sites
	d.section("5. Why they allocate: the compiler's reasons for each line")
	if err := d.escapes(ctx); err != nil {
		return fmt.Errorf("escapes: %w", err)
	}

	d.section("6. Verdict")
	d.res.Verdict = verdict(d.res.Shares, shortName(hot), sites)
	if why := escapesVerdict(d.res.Escapes); why != "" {
		d.res.Verdict = wrap(d.res.Verdict+" "+why, 80)
	}
	d.printf("%s\n", d.res.Verdict)
	return nil
}

func (d *demoRun) runTuned(ctx context.Context) error {
	d.section("7. The fix: the tuned loop finder (slices indexed by block number, storage and loop graph reused)")
	m, err := measure(ctx, havlak.Tuned, d.opts.Reps, d.progress("tuned"))
	d.opts.Progress("")
	if err != nil {
		return err
	}
	d.res.Tuned = m
	d.printf("# of loops: %d (including 1 artificial root node)\n\n", m.Loops)
	if m.Loops != d.res.Naive.Loops {
		return fmt.Errorf("the tuned finder found %d loops, the naive one %d", m.Loops, d.res.Naive.Loops)
	}
	writeTable(d.w, d.res.Naive, m)
	d.printf("\nBoth runs were under the CPU profiler. Peak memory is what the Go runtime held\nmapped from the OS (runtime/metrics), sampled every 5 ms.\n")
	if _, err := d.save(tunedCPUFile, m.CPUProfile); err != nil {
		return err
	}
	d.printNext()
	return nil
}
