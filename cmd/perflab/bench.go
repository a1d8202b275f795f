package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/perflab/perflab/bench"
)

var benchCmd = &command{
	name:    "bench",
	summary: "compare Go benchmark results (benchstat) and run benchmarks",
	usage:   benchUsage,
	run:     runBench,
}

const benchUsage = `usage: perflab bench compare [flags] OLD NEW...
       perflab bench run [flags] [PACKAGES] -bench REGEX

compare summarizes and compares files in the Go benchmark format ("-" is
standard input; "label=file" names a column). Its default output is
benchstat's, byte for byte. Run 'perflab bench compare -h' for its flags.

run runs 'go test -bench' on the working tree and, with -base REV, on that
git revision, interleaving the two, saves both result files and prints
the comparison. Run 'perflab bench run -h' for its flags.

Examples:
  perflab bench compare old.txt new.txt
  perflab bench compare -format csv old.txt new.txt
  perflab bench compare -fail-on 'sec/op>+5%,allocs/op>0' old.txt new.txt
  perflab bench run -base HEAD~1 -bench . ./examples/elvis
`

func runBench(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		return usageErrorf("bench needs a subcommand: compare or run")
	}
	switch args[0] {
	case "compare":
		return runBenchCompare(ctx, stdout, stderr, args[1:])
	case "run":
		return runBenchRun(ctx, stdout, stderr, args[1:])
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, benchUsage)
		return nil
	}
	return usageErrorf("unknown bench subcommand %q: want compare or run", args[0])
}

var benchCompareCmd = &command{
	name: "bench",
	usage: `usage: perflab bench compare [flags] OLD NEW...

Reads each input in the Go benchmark format ("-" is standard input,
"label=file" sets the column label) and prints, for each configuration and
unit, the median of every benchmark with its confidence interval and, for
every column after the first, the change from the first column with its
p-value ("~" when the change is not statistically significant). The text
and csv formats are benchstat's, byte for byte; see
https://pkg.go.dev/golang.org/x/perf/cmd/benchstat for -table, -row, -col,
-ignore and -filter.

Flags:
  -alpha α          consider a change significant if p < α (default 0.05)
  -confidence L     confidence level of the ranges (default 0.95)
  -table KEYS       split results into tables by KEYS (default .config)
  -row KEYS         split results into rows by KEYS (default .fullname)
  -col KEYS         compare columns with different KEYS (default .file)
  -ignore KEYS      ignore variations in KEYS
  -filter QUERY     use only benchmarks matching QUERY (default *)
  -format F         text (default), csv, old (benchcmp's tables) or json
  -fail-on EXPR     exit 1 when a significant change crosses a limit, e.g.
                    'sec/op>+5%,allocs/op>0' (see docs/bench.md)

Exit status: 0, or 1 when an input cannot be read, holds no benchmark
results, or a -fail-on limit is crossed; 2 for a usage error.

Examples:
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

func (f *compareFlags) register(fs interface {
	StringVar(*string, string, string, string)
	Float64Var(*float64, string, float64, string)
}) {
	f.cfg = bench.DefaultConfig()
	fs.Float64Var(&f.cfg.Alpha, "alpha", f.cfg.Alpha, "")
	fs.Float64Var(&f.cfg.Confidence, "confidence", f.cfg.Confidence, "")
	fs.StringVar(&f.cfg.Table, "table", f.cfg.Table, "")
	fs.StringVar(&f.cfg.Row, "row", f.cfg.Row, "")
	fs.StringVar(&f.cfg.Col, "col", f.cfg.Col, "")
	fs.StringVar(&f.cfg.Ignore, "ignore", "", "")
	fs.StringVar(&f.cfg.Filter, "filter", f.cfg.Filter, "")
	fs.StringVar(&f.format, "format", "text", "")
	fs.StringVar(&f.failOn, "fail-on", "", "")
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
		return nil, nil, usageErrorf("%s", err)
	}
	var gate *bench.Gate
	if f.failOn != "" {
		if gate, err = bench.ParseGate(f.failOn); err != nil {
			return nil, nil, usageErrorf("parsing -fail-on: %s", err)
		}
	}
	return b, gate, nil
}

func runBenchCompare(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(benchCompareCmd)
	var f compareFlags
	f.register(fs)
	if err := parseFlags(benchCompareCmd, fs, stdout, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageErrorf("compare needs at least one input file")
	}
	b, gate, err := f.check()
	if err != nil {
		return err
	}
	var empty []string
	for _, a := range bench.ParseArgs(fs.Args()) {
		n, err := readInput(b, a, stderr)
		if err != nil {
			return err
		}
		if n == 0 {
			empty = append(empty, a.Path)
		}
	}
	return report(b.Tables(), &f, gate, stdout, stderr, empty)
}

// readInput reads one input into b and returns how many results it held.
func readInput(b *bench.Builder, a bench.Arg, stderr io.Writer) (int, error) {
	r := io.Reader(os.Stdin)
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

func runBenchRun(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	return errors.New("bench run is not implemented yet")
}
