package main

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/timeline"
)

// writeTraceReport writes the summary as text or JSON, or the comparison
// with -base, and the -html page.
func writeTraceReport(ctx context.Context, res *traceResult, o *execTraceFlags, opts profiles.Options, stdout, stderr io.Writer) error {
	var text strings.Builder
	if err := res.sum.WriteText(&text); err != nil {
		return err
	}
	if res.truncated != nil {
		text.WriteString("\nwarning: " + res.truncated.Error() + "\n")
	}
	out := text.String()
	switch {
	case o.base != "":
		old, err := analyzeTrace(ctx, o.base, opts, nil, stderr)
		if err != nil {
			return err
		}
		var b strings.Builder
		if err := exectrace.WriteComparison(&b, old.sum, res.sum, "base", "new"); err != nil {
			return err
		}
		out = "base: " + old.name + "\nnew:  " + res.name + "\n\n" + b.String()
	case o.json:
		b, err := json.MarshalIndent(res.sum, "", "  ")
		if err != nil {
			return err
		}
		out = string(b) + "\n"
	}
	if o.html != "" {
		page := &chart.Page{Title: "perflab trace: " + res.name, Summary: text.String(), Charts: traceCharts(res.sum)}
		if err := atomicfile.Write(o.html, page.Render); err != nil {
			return err
		}
	}
	if res.tiler != nil {
		page := &timeline.Page{Title: "perflab trace: " + res.name, Summary: text.String(), Tiles: res.tiler.Tiles(), Spans: res.spans.Spans()}
		if err := atomicfile.Write(o.timeline, page.Render); err != nil {
			return err
		}
	}
	return writeOut(o.out, stdout, func(w io.Writer) error {
		_, err := io.WriteString(w, out)
		return err
	})
}

// traceCharts returns the charts of busy Ps, goroutines and heap over time.
func traceCharts(s *exectrace.Summary) []chart.Chart {
	n := len(s.Timeline)
	x := make(chart.Values, n)
	busy, procs, alive, most, heap := make(chart.Values, n), make(chart.Values, n), make(chart.Values, n), make(chart.Values, n), make(chart.Values, n)
	for i, p := range s.Timeline {
		x[i] = p.Start.Seconds()
		busy[i], procs[i] = p.ProcsBusy, float64(s.GOMAXPROCS)
		alive[i], most[i] = p.Goroutines, float64(p.GoroutinesMax)
		heap[i] = float64(p.HeapBytes)
	}
	return []chart.Chart{
		{
			Title: "Busy Ps", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "Ps running goroutines", Unit: chart.Count, X: x,
			Series: []chart.Series{
				{Label: "busy Ps (mean)", Y: busy, Color: "#1f77b4"},
				{Label: "GOMAXPROCS", Y: procs, Color: "#999999"},
			},
		},
		{
			Title: "Goroutines", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "goroutines alive", Unit: chart.Count, X: x,
			Series: []chart.Series{
				{Label: "mean", Y: alive, Color: "#1f77b4"},
				{Label: "most at once", Y: most, Color: "#d62728"},
			},
		},
		{
			Title: "Heap", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "heap objects", Unit: chart.Bytes, X: x,
			Series: []chart.Series{{Label: "heap objects (0: no reading)", Y: heap, Color: "#2ca02c"}},
		},
	}
}

// A perfettoFile is the -perfetto output, written as the trace is read.
type perfettoFile struct {
	f *atomicfile.File
	w *exectrace.Perfetto
}

func newPerfettoFile(name string) (*perfettoFile, error) {
	f, err := atomicfile.Create(name)
	if err != nil {
		return nil, err
	}
	return &perfettoFile{f: f, w: exectrace.NewPerfetto(f)}, nil
}

func (p *perfettoFile) commit() error {
	if err := p.w.Close(); err != nil {
		return err
	}
	err := p.f.Commit()
	p.f = nil
	return err
}

func (p *perfettoFile) abort() {
	if p.f != nil {
		p.f.Abort()
	}
}
