package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/perflab/perflab/bench"
	"github.com/perflab/perflab/benchrun"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/profiles"
)

var benchCmd = &command{
	name:    "bench",
	summary: "compare Go benchmark results (benchstat) and run benchmarks",
	synopsis: `perflab bench compare [flags] OLD NEW...
perflab bench run [flags] [PACKAGES] -bench REGEX`,
	doc: `
compare summarizes and compares files in the Go benchmark format ("-" is
standard input; "label=file" names a column). Its default output is
benchstat's, byte for byte. Run 'perflab bench compare -h' for its flags.

run runs 'go test -bench' on the working tree and, with -base REV, on that
git revision, interleaving the two, saves both result files and prints
the comparison. Run 'perflab bench run -h' for its flags.
`,
	examples: `
perflab bench compare old.txt new.txt
perflab bench compare -format csv old.txt new.txt
perflab bench compare -fail-on 'sec/op>+5%,allocs/op>0' old.txt new.txt
perflab bench run -base HEAD~1 -bench . ./examples/elvis
`,
	subs: []*command{benchCompareCmd, benchRunCmd},
	run:  runBench,
}

func runBench(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return usageErrorf("bench needs a subcommand: compare or run")
	}
	switch args[0] {
	case "compare":
		return runBenchCompare(ctx, stdin, stdout, stderr, args[1:])
	case "run":
		return runBenchRun(ctx, stdin, stdout, stderr, args[1:])
	case "-h", "-help", "--help":
		return &helpRequest{newFlagSet("bench")}
	}
	return usageErrorf("unknown bench subcommand %q: want compare or run", args[0])
}

var benchCompareCmd = &command{
	name:     "bench compare",
	synopsis: `perflab bench compare [flags] OLD NEW...`,
	doc: `
Reads each input in the Go benchmark format ("-" is standard input,
"label=file" sets the column label) and prints, for each configuration and
unit, the median of every benchmark with its confidence interval and, for
every column after the first, the change from the first column with its
p-value ("~" when the change is not statistically significant). The text
and csv formats are benchstat's, byte for byte; see
https://pkg.go.dev/golang.org/x/perf/cmd/benchstat for -table, -row, -col,
-ignore and -filter.

Exit status: 0, or 1 when an input cannot be read, holds no benchmark
results, or a -fail-on limit is crossed; 2 for a usage error.
`,
	examples: `
perflab bench compare old.txt new.txt
perflab bench compare -col /format -row .name new.txt
go test -bench . -count 10 | perflab bench compare old.txt -
perflab bench compare -format json old.txt new.txt
perflab bench compare -fail-on 'sec/op>+5%,allocs/op>0' old.txt new.txt
`,
}

// compareFlags are the flags bench compare and bench run share.
type compareFlags struct {
	cfg    bench.Config
	format string
	failOn string
}

// register defines the flags on fs, with benchstat's defaults.
func (f *compareFlags) register(fs *flag.FlagSet) {
	f.cfg = bench.DefaultConfig()
	fs.Float64Var(&f.cfg.Alpha, "alpha", f.cfg.Alpha, "consider a change significant if p < α (default 0.05)")
	fs.Float64Var(&f.cfg.Confidence, "confidence", f.cfg.Confidence, "confidence level of the ranges (default 0.95)")
	fs.StringVar(&f.cfg.Table, "table", f.cfg.Table, "split results into tables by `KEYS` (default .config)")
	fs.StringVar(&f.cfg.Row, "row", f.cfg.Row, "split results into rows by `KEYS` (default .fullname)")
	fs.StringVar(&f.cfg.Col, "col", f.cfg.Col, "compare columns with different `KEYS` (default .file)")
	fs.StringVar(&f.cfg.Ignore, "ignore", "", "ignore variations in `KEYS`")
	fs.StringVar(&f.cfg.Filter, "filter", f.cfg.Filter, "use only benchmarks matching `QUERY`")
	fs.StringVar(&f.format, "format", "text", "text (default), csv, old (benchcmp's tables) or json")
	fs.StringVar(&f.failOn, "fail-on", "", "exit 1 when a significant change crosses a limit, e.g. 'sec/op>+5%,allocs/op>0' (see docs/bench.md)")
}

// check validates the flags before any input is read.
func (f *compareFlags) check() (*bench.Builder, *bench.Gate, error) {
	switch f.format {
	case "text", "csv", "old", "json":
	default:
		return nil, nil, usageErrorf("-format must be text, csv, old or json, not %q", f.format)
	}
	b, err := bench.NewBuilder(f.cfg)
	if err != nil {
		return nil, nil, usageErrorf("%w", err)
	}
	var gate *bench.Gate
	if f.failOn != "" {
		if gate, err = bench.ParseGate(f.failOn); err != nil {
			return nil, nil, usageErrorf("parsing -fail-on: %w", err)
		}
	}
	return b, gate, nil
}

func runBenchCompare(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("bench compare")
	var f compareFlags
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("compare needs at least one input file")
	}
	b, gate, err := f.check()
	if err != nil {
		return err
	}
	empty, err := readInputs(b, bench.ParseArgs(fs.Args()), stdin, stderr)
	if err != nil {
		return err
	}
	ts := b.Tables()
	if err := checkGateUnits(gate, b, ts); err != nil {
		return err
	}
	return report(ts, &f, gate, stdout, stderr, empty)
}

// checkGateUnits fails with a usage error when a -fail-on limit names a
// unit the compared results lack, since such a limit can never be
// crossed. Without any result, the missing results are the error to
// report instead.
func checkGateUnits(gate *bench.Gate, b *bench.Builder, ts *bench.Tables) error {
	if gate == nil || b.Results() == 0 {
		return nil
	}
	if err := gate.CheckUnits(ts, b.InputUnits()); err != nil {
		return usageErrorf("-fail-on: %w", err)
	}
	return nil
}

// readInputs reads every input into b and returns the paths of those
// that held no results.
func readInputs(b *bench.Builder, args []bench.Arg, stdin io.Reader, stderr io.Writer) ([]string, error) {
	var empty []string
	for _, a := range args {
		n, err := readInput(b, a, stdin, stderr)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			empty = append(empty, a.Path)
		}
	}
	return empty, nil
}

// readInput reads one input into b and returns how many results it held.
func readInput(b *bench.Builder, a bench.Arg, stdin io.Reader, stderr io.Writer) (int, error) {
	r := stdin
	if a.Path != "-" {
		file, err := os.Open(a.Path)
		if err != nil {
			return 0, err
		}
		defer file.Close()
		r = file
	}
	before := b.Results()
	err := b.Read(a, r, func(err error) { fmt.Fprintln(stderr, err) })
	return b.Results() - before, err
}

// report prints the tables in the chosen format, then fails if an input
// was empty or a -fail-on limit is crossed.
func report(ts *bench.Tables, f *compareFlags, gate *bench.Gate, stdout, stderr io.Writer, empty []string) error {
	var err error
	switch f.format {
	case "text":
		err = ts.WriteText(stdout)
	case "csv":
		err = ts.WriteCSV(stdout, stderr)
	case "old":
		err = ts.WriteOld(stdout)
	case "json":
		err = ts.WriteJSON(stdout)
	}
	if err != nil {
		return err
	}
	for _, s := range ts.UnitGaps() {
		fmt.Fprintf(stderr, "perflab bench: warning: %s\n", s)
	}
	if len(empty) > 0 {
		return fmt.Errorf("%s: no benchmark results", strings.Join(empty, ", "))
	}
	return checkGate(gate, ts, stderr)
}

// checkGate prints every -fail-on limit crossed and fails if there is one.
func checkGate(gate *bench.Gate, ts *bench.Tables, stderr io.Writer) error {
	if gate == nil {
		return nil
	}
	crossed := gate.Check(ts)
	for _, v := range crossed {
		fmt.Fprintf(stderr, "perflab bench: %s\n", v)
	}
	if len(crossed) > 0 {
		return exitStatus(1)
	}
	return nil
}

var benchRunCmd = &command{
	name:     "bench run",
	synopsis: `perflab bench run [flags] [PACKAGES] -bench REGEX`,
	doc: `
Compiles the test binaries of PACKAGES (default ".") and runs their
benchmarks matching REGEX -count times with -benchmem. With -base REV it
does the same on git revision REV, checked out in a temporary worktree,
alternating one run of each side at a time so that drift in the
machine's speed hits both alike. It saves the result files (and profiles)
in -o DIR, then prints the comparison as 'perflab bench compare' does.
`,
	examples: `
perflab bench run -bench . ./examples/elvis
perflab bench run -base HEAD~1 -count 20 -bench 'Algorithm' ./examples/elvis
perflab bench run -base main -profile cpu,mem -bench . -fail-on 'sec/op>+5%'
`,
}

// runFlags are bench run's own flags.
type runFlags struct {
	bench, benchtime, base, profile, out string
	count                                int
}

// parseInterleaved parses flags that may follow positional arguments, as in
// "bench run ./pkg -bench .", and returns the positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func runBenchRun(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("bench run")
	var f compareFlags
	f.register(fs)
	var rf runFlags
	fs.StringVar(&rf.bench, "bench", "", "benchmarks to run (required)")
	fs.StringVar(&rf.benchtime, "benchtime", "", "passed to go test -benchtime")
	fs.StringVar(&rf.base, "base", "", "git revision to compare the working tree with")
	fs.StringVar(&rf.profile, "profile", "", "cpu, mem or cpu,mem: record profiles per side and list the functions whose share changed most")
	fs.StringVar(&rf.out, "o", "", "where to save results (default: a new temporary directory) and bench compare's -alpha, -confidence, -table, -row, -col, -ignore,")
	fs.IntVar(&rf.count, "count", 10, "runs per side (default 10)")
	pkgs, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	cfg, err := rf.config(pkgs)
	if err != nil {
		return err
	}
	b, gate, err := f.check()
	if err != nil {
		return err
	}
	line := term.NewLine(stderr)
	cfg.Progress = func(run, total int, side, pkg string) {
		line.Printf("bench run: %d/%d  %s  %s", run+1, total, side, pkg)
	}
	res, err := benchrun.Run(ctx, cfg)
	line.Clear()
	if err != nil {
		return err
	}
	files := []bench.Arg{{Path: res.New.Results, Label: "new"}}
	if res.Old != nil {
		files = []bench.Arg{{Path: res.Old.Results, Label: res.Old.Name}, files[0]}
		fmt.Fprintf(stderr, "results: %s %s\n", res.Old.Results, res.New.Results)
	} else {
		fmt.Fprintf(stderr, "results: %s\n", res.New.Results)
	}
	empty, err := readInputs(b, files, nil, stderr)
	if err != nil {
		return err
	}
	if len(empty) == len(files) {
		return fmt.Errorf("no benchmark matches -bench %q in %s", rf.bench, cmp.Or(strings.Join(pkgs, " "), "."))
	}
	ts := b.Tables()
	if err := checkGateUnits(gate, b, ts); err != nil {
		return err
	}
	if err := report(ts, &f, nil, stdout, stderr, empty); err != nil {
		return err
	}
	if res.Old != nil {
		if err := printShareChanges(ctx, stdout, res); err != nil {
			return err
		}
	}
	return checkGate(gate, ts, stderr)
}

// config checks bench run's flags and turns them into a RunConfig.
func (rf *runFlags) config(pkgs []string) (benchrun.Config, error) {
	cfg := benchrun.Config{Packages: pkgs, Bench: rf.bench, Count: rf.count, Benchtime: rf.benchtime, Base: rf.base}
	if rf.bench == "" {
		return cfg, usageErrorf("-bench REGEX is required")
	}
	if rf.count < 1 {
		return cfg, usageErrorf("-count must be at least 1, not %d", rf.count)
	}
	if rf.profile != "" {
		for _, k := range strings.Split(rf.profile, ",") {
			if k != "cpu" && k != "mem" {
				return cfg, usageErrorf("-profile: unknown profile %q: want cpu, mem or cpu,mem", k)
			}
			cfg.Profiles = append(cfg.Profiles, k)
		}
	}
	cfg.OutDir = rf.out
	if cfg.OutDir == "" {
		dir, err := os.MkdirTemp("", "perflab-bench-")
		if err != nil {
			return cfg, err
		}
		cfg.OutDir = dir
	} else if err := os.MkdirAll(cfg.OutDir, 0o777); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// printShareChanges lists, per recorded profile kind, the functions whose
// share of the profile changed most between the sides.
func printShareChanges(ctx context.Context, w io.Writer, res *benchrun.Result) error {
	for _, kind := range []string{"cpu", "mem"} {
		oldFiles, newFiles := res.Old.Profiles[kind], res.New.Profiles[kind]
		if len(oldFiles) == 0 || len(newFiles) == 0 {
			continue
		}
		old, err := profiles.Load(ctx, oldFiles, profiles.Options{})
		if err != nil {
			return err
		}
		new, err := profiles.Load(ctx, newFiles, profiles.Options{})
		if err != nil {
			return err
		}
		st, title := "cpu", "CPU profile: functions whose share of samples changed most"
		if kind == "mem" {
			st, title = "alloc_space", "memory profile: functions whose share of allocated bytes changed most"
		}
		changes := benchrun.CompareShares(benchrun.FlatShares(old, st), benchrun.FlatShares(new, st), 10)
		fmt.Fprintln(w)
		if err := benchrun.WriteShareChanges(w, title, changes); err != nil {
			return err
		}
	}
	return nil
}
