package main

import (
	"context"
	"io"
	"runtime"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

var graphCmd = &command{name: "graph", summary: "the call graph as DOT (as pprof -dot) or SVG, without Graphviz",
	usage: `usage: perflab graph [flags] -dot|-svg [-o FILE] SOURCE...

Writes the call graph of pprof's 'web' command: -dot prints it in
Graphviz's DOT language, byte for byte as 'go tool pprof -dot' does with the
same flags; -svg lays it out and draws it as SVG itself, no Graphviz needed.
The output goes to stdout, or to FILE with -o.

Examples:
  perflab graph -dot cpu.pprof > cpu.dot
  perflab graph -svg -o cpu.svg -focus=main.run cpu.pprof
  perflab graph -svg -o diff.svg -diff_base=old.pprof new.pprof

Format:
  -dot                   DOT output, as pprof -dot
  -svg                   SVG output, laid out by perflab
  -o FILE                write to FILE instead of stdout

` + reportFlagHelp,
}

func init() { graphCmd.run = runGraph }

func runGraph(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(graphCmd)
	rf := addReportFlags(fs, rpt.Dot)
	dot := fs.Bool("dot", false, "DOT output")
	svg := fs.Bool("svg", false, "SVG output")
	out := fs.String("o", "", "output file")
	if err := parseFlags(graphCmd, fs, stdout, args); err != nil {
		return err
	}
	if *dot == *svg {
		return usageErrorf("give one of -dot and -svg")
	}
	if fs.NArg() == 0 {
		return usageErrorf("no profile given")
	}
	o, err := rf.options(stderr)
	if err != nil {
		return usageErrorf("%v", err)
	}
	opts, err := rf.src.options(stdin, stderr)
	if err != nil {
		return err
	}
	p, err := profiles.Load(ctx, fs.Args(), opts)
	if err != nil {
		return err
	}
	runtime.GC()
	write := func(w io.Writer) error {
		if *dot {
			return rpt.Generate(w, p, rpt.Dot, o)
		}
		g, err := rpt.CallGraph(p, o)
		if err != nil {
			return err
		}
		return graph.WriteInteractiveSVG(w, g)
	}
	if *out == "" {
		return write(stdout)
	}
	return atomicfile.Write(*out, write)
}
