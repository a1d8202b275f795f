package investigate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/exectrace"
)

// The report's timeline of the trace: its columns, and how many of the
// longest tasks and regions it draws.
const (
	timelineColumns = 2000
	timelineSpans   = 500
)

// summarizeTrace reads the execution trace with package exectrace, in one
// streaming pass, for its summary and its timeline. When gcJudged, the
// report judges the GC by gctrace over the whole load, and the trace's own
// verdict on the GC is left out: one verdict, from one measure.
func summarizeTrace(path string, gcJudged bool) (TraceReport, error) {
	t := TraceReport{File: filepath.Base(path)}
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	a := exectrace.NewAnalyzer()
	tiler := exectrace.NewTiler(0, 0, timelineColumns)
	spans := exectrace.NewSpanCollector(0, timelineSpans)
	if _, err := exectrace.Read(f, a, tiler, spans); err != nil {
		return t, err
	}
	t.Timeline, t.Spans = tiler.Tiles(), spans.Spans()
	s := a.Finish()
	if gcJudged {
		s.DropGCVerdict()
	}
	t.Seconds, t.GOMAXPROCS, t.BusyPs = s.Duration.Seconds(), s.GOMAXPROCS, s.ProcsBusyAvg
	t.GoroutinesMax, t.SchedLatencyP99 = s.GoroutinesMax, s.SchedLatency.P99.Seconds()
	t.LockWait, t.Verdicts = s.LockWait.Seconds(), s.Verdicts
	var buf bytes.Buffer
	s.WriteText(&buf)
	t.Summary = strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	return t, nil
}
