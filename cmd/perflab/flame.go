package main

import (
	"context"
	"io"

	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/atomicfile"
	rpt "github.com/perflab/perflab/report"
)

var flameCmd = &command{
	name:     "flame",
	summary:  "write a profile's flame graph as one self-contained HTML file",
	synopsis: `perflab flame [flags] -o FILE.html SOURCE...`,
	doc: `
Writes an interactive flame graph of the profile to FILE.html: one file
with its script inlined, for attaching to CI runs and issues, at most
about 2 MB whatever the profile (frames too narrow to see are left out).
Click to zoom, shift-click for the sandwich view (callers above, callees
below), search by regexp. With -diff_base or -base the graph is a red/blue
diff on the new profile's shape (red grew, blue shrank); the page names the
base in its heading and the graph's legend; its Reverse button draws the
base's shape, Normalize scales the base to the new total.
`,
	examples: `
perflab flame -o cpu.html cpu.pprof
perflab flame -focus=main.run -o run.html cpu.pprof
perflab flame -diff_base=before.pprof -o diff.html after.pprof
`,
	run: runFlame,
}

func runFlame(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("flame")
	rf := addReportFlags(fs, rpt.Kind("flame"))
	out := fs.String("o", "", "the HTML file to write (required)")
	title := fs.String("title", "", "the page's title (default: the sources)")
	flameUp := fs.Bool("flame", false, "root at the bottom (default: icicle, root on top)")
	sources, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf("-o FILE.html is required")
	case len(sources) == 0:
		return usageErrorf("no profile given")
	}
	// -base draws the same diff as -diff_base: the base's samples kept
	// apart, so that the graph has the new profile's shape.
	rf.baseAsDiff = true
	p, o, err := rf.load(ctx, stdin, stderr, sources)
	if err != nil {
		return err
	}
	t, err := flame.Build(p, o)
	if err != nil {
		return err
	}
	legend, _, err := rpt.Describe(p)
	if err != nil {
		return err
	}
	legend = append(legend, o.ActiveFilters()...)
	ho := flame.HTMLOptions{Title: *title, Legend: legend, BaseName: rf.src.baseNames()}
	if ho.Title == "" {
		ho.Title = "perflab flame " + joinArgs(sources)
		if ho.BaseName != "" {
			ho.Title += " (base " + ho.BaseName + ")"
		}
	}
	if *flameUp {
		ho.Orientation = "flame"
	}
	return atomicfile.Write(*out, func(w io.Writer) error { return flame.WriteHTML(w, t, ho) })
}

func joinArgs(args []string) string {
	s := ""
	for i, a := range args {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}
