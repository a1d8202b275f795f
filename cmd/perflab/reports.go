package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

var topCmd = reportCommand("top", rpt.Top, "show the top entries of a profile, as pprof -top",
	`usage: perflab top [flags] SOURCE...

Prints the functions with the largest values, exactly as
'go tool pprof -top' does with the same flags. -json prints the rows as JSON.

Examples:
  perflab top cpu.pprof
  perflab top -cum -nodecount=20 cpu.pprof
  perflab top -sample_index=alloc_space -focus=main heap.pprof

`+reportFlagHelp)

var listCmd = reportCommand("list", rpt.List, "annotated source of functions matching a regex, as pprof -list",
	`usage: perflab list [flags] REGEX SOURCE...

Prints the source of every function matching REGEX with each line's flat
and cumulative values, as 'go tool pprof -list=REGEX'. Sources are read from
local files, searched along -source_path after removing -trim_path.

Examples:
  perflab list 'main.DFS' cpu.pprof
  perflab list -source_path=$HOME/src -trim_path=/build 'Handler' cpu.pprof

`+reportFlagHelp)

var peekCmd = reportCommand("peek", rpt.Peek, "callers and callees of matching functions, as pprof -peek",
	`usage: perflab peek [flags] REGEX SOURCE...

Prints the callers and callees of every function matching REGEX, as
'go tool pprof -peek=REGEX'. -json prints them as JSON.

Examples:
  perflab peek 'mapaccess' cpu.pprof
  perflab peek -json 'runtime.mallocgc' heap.pprof

`+reportFlagHelp)

var treeCmd = reportCommand("tree", rpt.Tree, "call graph as text, as pprof -tree",
	`usage: perflab tree [flags] SOURCE...

Prints every node of the call graph with its callers and callees, as
'go tool pprof -tree'. -json prints the graph as JSON.

Examples:
  perflab tree cpu.pprof
  perflab tree -nodecount=10 -focus=main.run cpu.pprof

`+reportFlagHelp)

var tracesCmd = reportCommand("traces", rpt.Traces, "every sample's stack, as pprof -traces",
	`usage: perflab traces [flags] SOURCE...

Prints each sample with its labels, value and stack, as 'go tool pprof -traces'.

Examples:
  perflab traces goroutine.pprof
  perflab traces -tagfocus=worker cpu.pprof

`+reportFlagHelp)

var tagsCmd = reportCommand("tags", rpt.Tags, "sample labels and their shares, as pprof -tags",
	`usage: perflab tags [flags] SOURCE...

Prints every label key with the share of the profile each value carries,
as 'go tool pprof -tags'.

Examples:
  perflab tags cpu.pprof
  perflab tags -sample_index=alloc_space heap.pprof

`+reportFlagHelp)

var rawCmd = reportCommand("raw", rpt.Raw, "the profile's raw contents, as pprof -raw",
	`usage: perflab raw [flags] SOURCE...

Prints the profile's sample types, samples, locations and mappings, as
'go tool pprof -raw'.

Examples:
  perflab raw heap.pprof

`+reportFlagHelp)

// reportCommand makes the command of report k.
func reportCommand(name string, k rpt.Kind, summary, usage string) *command {
	c := &command{name: name, summary: summary, usage: usage}
	c.run = func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
		return runReport(ctx, c, k, stdin, stdout, stderr, args)
	}
	return c
}

// runReport parses a report command's flags, loads its sources and writes
// the rpt.
func runReport(ctx context.Context, c *command, k rpt.Kind, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	p, o, rf, err := loadReportArgs(ctx, c, k, stdin, stdout, stderr, args)
	if err != nil {
		return err
	}
	// Loading leaves the raw and decompressed bytes behind; collecting them
	// now lets the report's index reuse that memory instead of growing the
	// heap (130 MB less peak RSS on the 500k-sample benchmark profile).
	runtime.GC()
	if rf.json {
		return rpt.GenerateJSON(stdout, p, k, o)
	}
	return rpt.Generate(stdout, p, k, o)
}

// loadReportArgs parses the flags and arguments of a report of kind k (list
// and peek take a REGEX before the sources) and loads the profile; the
// source "-" reads stdin.
func loadReportArgs(ctx context.Context, c *command, k rpt.Kind, stdin io.Reader, stdout, stderr io.Writer, args []string) (*profile.Profile, rpt.Options, *reportFlags, error) {
	fs := newFlagSet(c)
	rf := addReportFlags(fs, k)
	if err := parseFlags(c, fs, stdout, args); err != nil {
		return nil, rpt.Options{}, nil, err
	}
	rest := fs.Args()
	if k == rpt.List || k == rpt.Peek {
		if len(rest) == 0 {
			return nil, rpt.Options{}, nil, usageErrorf("missing REGEX and profile")
		}
		rf.symbol, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		return nil, rpt.Options{}, nil, usageErrorf("no profile given")
	}
	o, err := rf.options(stderr)
	if err != nil {
		return nil, rpt.Options{}, nil, usageErrorf("%v", err)
	}
	opts, err := rf.src.options(stdin, stderr)
	if err != nil {
		return nil, rpt.Options{}, nil, err
	}
	p, err := profiles.Load(ctx, rest, opts)
	return p, o, rf, err
}

// reportFlags holds the values of pprof's report flags.
type reportFlags struct {
	o         rpt.Options
	symbol    string
	json      bool
	gran      map[string]*bool
	shortcuts map[string]*bool
	src       *sourceFlags
}

// sampleShortcuts maps pprof's legacy flags to the sample type they select,
// in the order pprof considers them.
var sampleShortcuts = []struct{ flag, index string }{
	{"total_delay", "delay"},
	{"mean_delay", "delay"},
	{"contentions", "contentions"},
	{"inuse_space", "inuse_space"},
	{"inuse_objects", "inuse_objects"},
	{"alloc_space", "alloc_space"},
	{"alloc_objects", "alloc_objects"},
}

// granularities are pprof's granularity flags, at most one of which may be set.
var granularities = []string{"functions", "filefunctions", "files", "lines", "addresses"}

func addReportFlags(fs *flag.FlagSet, k rpt.Kind) *reportFlags {
	rf := &reportFlags{o: rpt.DefaultOptions(), gran: map[string]*bool{}, shortcuts: map[string]*bool{}}
	o := &rf.o
	fs.StringVar(&o.SampleIndex, "sample_index", "", "sample value to report: a type `name` or an index")
	fs.BoolVar(&o.Mean, "mean", false, "report mean values (divide by the first sample value)")
	fs.BoolVar(&o.Cum, "cum", false, "sort by cumulative value")
	fs.IntVar(&o.NodeCount, "nodecount", -1, "show at most `n` nodes")
	fs.Float64Var(&o.NodeFraction, "nodefraction", o.NodeFraction, "hide nodes below `f` x total")
	fs.Float64Var(&o.EdgeFraction, "edgefraction", o.EdgeFraction, "hide edges below `f` x total")
	fs.StringVar(&o.Focus, "focus", "", "keep samples through a frame matching `regexp`")
	fs.StringVar(&o.Ignore, "ignore", "", "drop samples through a frame matching `regexp`")
	fs.StringVar(&o.Hide, "hide", "", "drop frames matching `regexp`")
	fs.StringVar(&o.Show, "show", "", "keep only frames matching `regexp`")
	fs.StringVar(&o.ShowFrom, "show_from", "", "drop frames above the highest match of `regexp`")
	fs.StringVar(&o.TagFocus, "tagfocus", "", "keep samples with labels matching `filter` (regexp or range)")
	fs.StringVar(&o.TagIgnore, "tagignore", "", "drop samples with labels matching `filter`")
	for _, g := range granularities {
		rf.gran[g] = fs.Bool(g, false, "aggregate at "+g+" granularity")
	}
	fs.BoolVar(&o.NoInlines, "noinlines", false, "attribute inlined frames to their callers")
	fs.StringVar(&o.Unit, "unit", o.Unit, "output `unit` (e.g. ms, MB), minimum or auto")
	fs.Float64Var(&o.DivideBy, "divide_by", 1, "divide values by `x`")
	fs.BoolVar(&o.RelativePercentages, "relative_percentages", false, "percentages of the filtered total")
	fs.BoolVar(&o.CompactLabels, "compact_labels", false, "show minimal headers")
	fs.StringVar(&o.SourcePath, "source_path", "", "search `path` for source files")
	fs.StringVar(&o.TrimPath, "trim_path", "", "`prefix` to trim from source paths")
	for _, s := range sampleShortcuts {
		rf.shortcuts[s.flag] = fs.Bool(s.flag, false, "same as -sample_index="+s.index)
	}
	rf.src = addSourceFlags(fs, true)
	if k == rpt.Top || k == rpt.Peek || k == rpt.Tree {
		fs.BoolVar(&rf.json, "json", false, "print JSON (see docs/json.md)")
	}
	return rf
}

// options resolves granularity and sample shortcuts into report options.
func (rf *reportFlags) options(stderr io.Writer) (rpt.Options, error) {
	o := rf.o
	o.Symbol = rf.symbol
	o.Warnings = stderr
	var set []string
	for _, g := range granularities {
		if *rf.gran[g] {
			set = append(set, g)
		}
	}
	if len(set) > 1 {
		return o, fmt.Errorf("conflicting options set: %v", set)
	}
	if len(set) == 1 {
		o.Granularity = set[0]
	}
	for _, s := range sampleShortcuts {
		if !*rf.shortcuts[s.flag] {
			continue
		}
		if o.SampleIndex == "" {
			o.SampleIndex = s.index
		} else {
			fmt.Fprintf(stderr, "Multiple value selections, ignoring -%s\n", s.flag)
		}
	}
	if *rf.shortcuts["mean_delay"] {
		o.Mean = true
	}
	return o, nil
}

// reportFlagHelp describes the flags every report command accepts.
const reportFlagHelp = `Flags (pprof's names and meanings):
  -sample_index=NAME|N   sample value to report; shortcuts: -inuse_space
                         -inuse_objects -alloc_space -alloc_objects
                         -total_delay -contentions -mean_delay
  -cum                   sort by cumulative value
  -nodecount=N           show at most N nodes
  -nodefraction=F        hide nodes below F x total (default 0.005)
  -edgefraction=F        hide edges below F x total (default 0.001)
  -focus, -ignore, -hide, -show, -show_from=REGEXP
                         keep or drop samples and frames by function, file
                         or object name
  -tagfocus, -tagignore=FILTER
                         keep or drop samples by label (regexp, key=regexp
                         or a numeric range such as 1kb:64kb)
  -functions -filefunctions -files -lines -addresses
                         granularity (default -functions; list uses -lines)
  -noinlines             attribute inlined frames to their callers
  -unit=UNIT             output unit (ms, MB, ...), minimum or auto
  -divide_by=X           divide values by X
  -relative_percentages  percentages of the filtered total
  -compact_labels        minimal headers
  -source_path=PATH, -trim_path=PREFIX
                         where list finds source files
  -json                  JSON output (top, peek, tree; see docs/json.md)
` + sourceFlagHelp
