package investigate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/exectrace"
)

// summarizeTrace reads the execution trace with package exectrace, in one
// streaming pass.
func summarizeTrace(path string) (TraceReport, error) {
	t := TraceReport{File: filepath.Base(path)}
	f, err := os.Open(path)
	if err != nil {
		return t, err
	}
	defer f.Close()
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(f, a); err != nil {
		return t, err
	}
	s := a.Finish()
	t.Seconds, t.GOMAXPROCS, t.BusyPs = s.Duration.Seconds(), s.GOMAXPROCS, s.ProcsBusyAvg
	t.GoroutinesMax, t.SchedLatencyP99 = s.GoroutinesMax, s.SchedLatency.P99.Seconds()
	t.LockWait, t.Verdicts = s.LockWait.Seconds(), s.Verdicts
	var buf bytes.Buffer
	s.WriteText(&buf)
	t.Summary = strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	return t, nil
}
