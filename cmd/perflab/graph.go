package main

import (
	"context"
	"io"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/internal/atomicfile"
	rpt "github.com/perflab/perflab/report"
)

var graphCmd = &command{name: "graph", summary: "the call graph as DOT (as pprof -dot) or SVG, without Graphviz",
	synopsis: `perflab graph [flags] -dot|-svg [-o FILE] SOURCE...`,
	doc: `
Writes the call graph of pprof's 'web' command: -dot prints it in
Graphviz's DOT language, byte for byte as 'go tool pprof -dot' does with the
same flags; -svg lays it out and draws it as SVG itself, no Graphviz needed.
The output goes to stdout, or to FILE with -o.
`,
	examples: `
perflab graph -dot cpu.pprof > cpu.dot
perflab graph -svg -o cpu.svg -focus=main.run cpu.pprof
perflab graph -svg -o diff.svg -diff_base=old.pprof new.pprof
`,
	run: runGraph,
}

func runGraph(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("graph")
	rf := addReportFlags(fs, rpt.Dot)
	dot := fs.Bool("dot", false, "DOT output, as pprof -dot")
	svg := fs.Bool("svg", false, "SVG output, laid out by perflab")
	out := fs.String("o", "", "write to `FILE` instead of stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dot == *svg {
		return usageErrorf("give one of -dot and -svg")
	}
	p, o, err := rf.load(ctx, stdin, stderr, fs.Args())
	if err != nil {
		return err
	}
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
