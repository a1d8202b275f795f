package main

import (
	"context"
	"io"

	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/term"
	rpt "github.com/perflab/perflab/report"
)

var protoCmd = &command{
	name:     "proto",
	summary:  "write the profile, merged and filtered, as profile.proto, as pprof -proto",
	synopsis: `perflab proto [flags] [-o FILE] SOURCE...`,
	doc: `
Writes the profile the reports would read — the sources merged, the base
applied, symbolized, then filtered by -focus, -ignore, -hide, -show,
-show_from, -tagfocus, -tagignore, -tagshow and -taghide — as gzipped
profile.proto, as 'go tool pprof -proto' does: every sample type is kept.
-divide_by scales the values. The output goes to stdout, or to FILE with -o;
binary output is not written to a terminal.
`,
	examples: `
perflab proto -o merged.pb.gz cpu1.pprof cpu2.pprof
perflab proto -focus=main.handle -o handle.pb.gz cpu.pprof
perflab proto -base=before.pprof after.pprof > delta.pb.gz
`,
	run: runProto,
}

func runProto(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("proto")
	rf := addReportFlags(fs, rpt.Raw)
	out := fs.String("o", "", "write to `FILE` instead of stdout")
	sources, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	if *out == "" && term.IsTTY(stdout) {
		return usageErrorf("standard output is a terminal: give -o FILE or redirect it")
	}
	p, o, err := rf.load(ctx, stdin, stderr, sources)
	if err != nil {
		return err
	}
	if err := rpt.Filter(p, o); err != nil {
		return err
	}
	if r := 1 / o.DivideBy; r > 0 && r != 1 { // as pprof scales them
		for _, s := range p.Sample {
			for i, v := range s.Value {
				s.Value[i] = int64(float64(v) * r)
			}
		}
	}
	if *out == "" {
		return p.Write(stdout)
	}
	return atomicfile.Write(*out, p.Write)
}
