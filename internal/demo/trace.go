package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	rtrace "runtime/trace"
	"text/tabwriter"
	"time"

	"github.com/perflab/perflab/examples/tracefreq"
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/units"
)

// TraceOptions configure RunTrace.
type TraceOptions struct {
	// Docs is the number of RSS documents searched; the article's is
	// 4000 (DefaultDocs).
	Docs int
	// TraceDir, if not empty, receives each variant's trace as
	// VARIANT.trace, and the demo ends by printing perflab commands to
	// try on them.
	TraceDir string
	// Progress is as in Options.
	Progress func(status string)
}

// DefaultDocs is the article's number of documents.
const DefaultDocs = 4000

// TraceStep is one variant the trace demo ran.
type TraceStep struct {
	Variant string
	Elapsed time.Duration
	Found   int
	Summary *exectrace.Summary
}

// traceStory is the trace demo's order of variants, with what each shows.
var traceStory = []struct{ variant, why string }{
	{"find", "one goroutine searches every document, as the article's first version does"},
	{"findConcurrent", "fan out: one goroutine per document"},
	{"findNumCPU", "one goroutine per P, taking documents from a channel"},
	{"findNumCPUTasks", "the same with a task per worker and a region per document"},
}

// RunTrace tells the execution-tracing story of the Ultimate Go notes with
// examples/tracefreq: each variant runs in-process under the execution
// tracer, perflab reads its trace, and the figures say what a profile
// cannot: how many Ps were busy, how many goroutines there were, how long
// each document took.
func RunTrace(ctx context.Context, w io.Writer, opts TraceOptions) ([]TraceStep, error) {
	if opts.Docs <= 0 {
		return nil, fmt.Errorf("documents: want at least 1, got %d", opts.Docs)
	}
	if opts.Progress == nil {
		opts.Progress = func(string) {}
	}
	if opts.TraceDir != "" {
		if err := os.MkdirAll(opts.TraceDir, 0o755); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(w, "Searching %d generated RSS documents for %q on %d Ps (GOMAXPROCS), four ways.\n",
		opts.Docs, "president", runtime.GOMAXPROCS(0))
	docs := tracefreq.Generate(opts.Docs, "president")
	var steps []TraceStep
	for i, s := range traceStory {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		opts.Progress(fmt.Sprintf("tracing %s", s.variant))
		step, err := traceVariant(s.variant, docs, opts.TraceDir)
		opts.Progress("")
		if err != nil {
			return nil, err
		}
		steps = append(steps, *step)
		fmt.Fprintf(w, "\n== %d. %s: %s\n\n", i+1, s.variant, s.why)
		writeStep(w, step)
	}
	writeTraceTable(w, steps)
	if opts.TraceDir != "" {
		fmt.Fprintf(w, "\nThe traces are in %s. Next:\n", opts.TraceDir)
		for _, c := range []string{
			"perflab trace " + filepath.Join(opts.TraceDir, "find.trace"),
			"perflab trace -base " + filepath.Join(opts.TraceDir, "find.trace") + " " + filepath.Join(opts.TraceDir, "findNumCPU.trace"),
			"perflab trace -pprof=sched -o sched.pprof " + filepath.Join(opts.TraceDir, "findConcurrent.trace") + " && perflab top sched.pprof",
			"perflab trace -html trace.html " + filepath.Join(opts.TraceDir, "findNumCPUTasks.trace"),
		} {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	return steps, nil
}

// traceVariant runs one variant under the tracer and summarises its trace.
func traceVariant(name string, docs [][]byte, dir string) (*TraceStep, error) {
	v, ok := tracefreq.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no variant %s", name)
	}
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		return nil, fmt.Errorf("starting the tracer: %w", err)
	}
	start := time.Now()
	found := v.Find("president", docs)
	elapsed := time.Since(start)
	rtrace.Stop()
	if dir != "" {
		err := atomicfile.Write(filepath.Join(dir, name+".trace"), func(w io.Writer) error {
			_, err := w.Write(buf.Bytes())
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(&buf, a); err != nil {
		return nil, fmt.Errorf("reading the trace of %s: %w", name, err)
	}
	return &TraceStep{Variant: name, Elapsed: elapsed, Found: found, Summary: a.Finish()}, nil
}

// writeStep tells what the trace of one variant shows.
func writeStep(w io.Writer, st *TraceStep) {
	s := st.Summary
	fmt.Fprintf(w, "found %d in %s; the trace: %.2f of %d Ps busy on average, %d goroutines created, %d alive at most\n",
		st.Found, units.Duration(st.Elapsed), s.ProcsBusyAvg, s.GOMAXPROCS, s.GoroutinesCreated, s.GoroutinesMax)
	if l := s.SchedLatency; l.Count > 0 {
		fmt.Fprintf(w, "runnable goroutines waited %s for a P in all (p99 %s)\n",
			units.Duration(s.States[exectrace.Runnable]), units.Duration(l.P99))
	}
	for _, r := range s.Regions {
		fmt.Fprintf(w, "region %s: %d, p50 %s, p99 %s, max %s\n", r.Name, r.Count,
			units.Duration(r.P50), units.Duration(r.P99), units.Duration(r.Max))
	}
	for _, v := range s.Verdicts {
		fmt.Fprintf(w, "verdict: %s\n", v)
	}
}

func writeTraceTable(w io.Writer, steps []TraceStep) {
	fmt.Fprintf(w, "\n== What the traces say\n\n")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "variant\telapsed\tbusy Ps\tgoroutines\tmost alive\t\n")
	for _, st := range steps {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%d\t%d\t\n", st.Variant, units.Duration(st.Elapsed),
			st.Summary.ProcsBusyAvg, st.Summary.GoroutinesCreated, st.Summary.GoroutinesMax)
	}
	tw.Flush()
}
