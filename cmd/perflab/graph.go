package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/internal/atomicfile"
	rpt "github.com/perflab/perflab/report"
)

var graphCmd = &command{name: "graph", summary: "the call graph as DOT (as pprof -dot) or SVG, without Graphviz",
	synopsis: `perflab graph [flags] -dot|-svg|-web [-o FILE] SOURCE...`,
	doc: `
Writes the call graph of pprof's 'web' command: -dot prints it in
Graphviz's DOT language, byte for byte as 'go tool pprof -dot' does with the
same flags; -svg lays it out and draws it as SVG itself, no Graphviz needed.
The output goes to stdout, or to FILE with -o. -web, as pprof -web, writes
the SVG to a new file in the temporary directory (or to FILE), says where on
stderr, and opens it in the browser.
`,
	examples: `
perflab graph -dot cpu.pprof > cpu.dot
perflab graph -svg -o cpu.svg -focus=main.run cpu.pprof
perflab graph -svg -o diff.svg -diff_base=old.pprof new.pprof
perflab graph -web -focus=main.run cpu.pprof
`,
	run: runGraph,
}

func runGraph(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("graph")
	rf := addReportFlags(fs, rpt.Dot)
	dot := fs.Bool("dot", false, "DOT output, as pprof -dot")
	svg := fs.Bool("svg", false, "SVG output, laid out by perflab")
	webView := fs.Bool("web", false, "write the SVG to a file and open it in the browser")
	out := fs.String("o", "", "write to `FILE` instead of stdout")
	sources, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	if n := btoi(*dot) + btoi(*svg) + btoi(*webView); n != 1 {
		return usageErrorf("give one of -dot, -svg and -web")
	}
	p, o, err := rf.load(ctx, stdin, stderr, sources)
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
	if *webView {
		return showSVG(*out, write, stderr)
	}
	if *out == "" {
		return write(stdout)
	}
	return atomicfile.Write(*out, write)
}

// showSVG writes an SVG to the file out, or to a new file in the
// temporary directory, says where and opens it in the browser.
func showSVG(out string, write func(io.Writer) error, stderr io.Writer) error {
	if out == "" {
		f, err := os.CreateTemp("", "perflab-graph-*.svg")
		if err != nil {
			return err
		}
		out = f.Name()
		f.Close()
	}
	if err := atomicfile.Write(out, write); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "Graph in", out)
	openBrowser(out)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
