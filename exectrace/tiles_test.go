package exectrace_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"golang.org/x/exp/trace"
)

func TestTilesAgreeWithSummary(t *testing.T) {
	data := tracefreqTrace(t, "findNumCPU", 600)
	a := exectrace.NewAnalyzer()
	open := exectrace.NewTiler(0, 0, 300)
	var head headStart
	if _, err := exectrace.Read(bytes.NewReader(data), a, open, &head); err != nil {
		t.Fatal(err)
	}
	s := a.Finish()
	tl := open.Tiles()
	if tl.Columns < 150 || tl.Columns > 300 || tl.End != s.Duration || len(tl.Procs) == 0 || len(tl.Procs) > s.GOMAXPROCS {
		t.Fatalf("open window: %d columns to %v, %d lanes; trace %v, GOMAXPROCS %d", tl.Columns, tl.End, len(tl.Procs), s.Duration, s.GOMAXPROCS)
	}
	// The summary counts a goroutine running when the trace began from the
	// moment the runtime tells its state, as go tool trace does; the tiles
	// from the start.
	want := s.ProcsBusyAvg + float64(head.ns)/float64(s.Duration)
	if got := meanBusy(tl); math.Abs(got-want) > 0.02 {
		t.Errorf("tiles say %.3f Ps busy on average, the summary %.3f and %v running before their state was told", got, s.ProcsBusyAvg, time.Duration(head.ns))
	}
	// A window of the middle half, drawn with 100 columns.
	from, to := s.Duration/4, s.Duration*3/4
	win := exectrace.NewTiler(from, to, 100)
	if _, err := exectrace.Read(bytes.NewReader(data), win); err != nil {
		t.Fatal(err)
	}
	wt := win.Tiles()
	if wt.Columns != 100 || wt.Start != from || wt.End != to {
		t.Fatalf("window: %d columns, %v to %v; want 100, %v to %v", wt.Columns, wt.Start, wt.End, from, to)
	}
	for _, lane := range wt.Procs {
		for i, b := range lane.Busy {
			if b < 0 || b > 1.0001 {
				t.Fatalf("P%d column %d busy %v, want 0 to 1", lane.Proc, i, b)
			}
		}
	}
	for _, b := range append(wt.GC, wt.STW...) {
		if b.Start < from || b.End > to || b.End < b.Start {
			t.Errorf("band %v outside the window", b)
		}
	}
	out, err := json.Marshal(wt)
	if err != nil || !strings.Contains(string(out), `"procs":[{"proc":`) {
		t.Errorf("JSON form: %v %.200s", err, out)
	}
}

// meanBusy is the number of Ps busy on average over the tiles.
func meanBusy(tl *exectrace.Tiles) float64 {
	var sum float64
	width := float64(tl.End-tl.Start) / float64(tl.Columns)
	for _, lane := range tl.Procs {
		for i, b := range lane.Busy {
			w := math.Min(width, float64(tl.End-tl.Start)-float64(i)*width)
			sum += float64(b) * w
		}
	}
	return sum / float64(tl.End-tl.Start)
}

// headStart sums, over the goroutines already running when the events
// begin, the time from the first event to the one telling their state.
type headStart struct {
	first trace.Time
	seen  bool
	ns    int64
}

func (h *headStart) Event(ev *trace.Event) {
	if !h.seen {
		h.seen, h.first = true, ev.Time()
	}
	if ev.Kind() != trace.EventStateTransition {
		return
	}
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return
	}
	if from, to := st.Goroutine(); from == trace.GoUndetermined && to == trace.GoRunning {
		h.ns += int64(ev.Time() - h.first)
	}
}
