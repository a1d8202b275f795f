package exectrace_test

import (
	"bytes"
	"math"
	"testing"
	"time"

	"golang.org/x/exp/trace"

	"github.com/perflab/perflab/exectrace"
)

// TestReadWindowMatchesFullPass: the tiles of a window read through the
// Index, from only the generations it overlaps, match the tiles of the
// same window from a full pass.
func TestReadWindowMatchesFullPass(t *testing.T) {
	data := tracefreqTrace(t, "find", 10000) // a few seconds: a few generations
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Generations() < 3 {
		t.Skipf("only %d generations; need 3 to read a window in the middle", ix.Generations())
	}
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(bytes.NewReader(data), a); err != nil {
		t.Fatal(err)
	}
	s := a.Finish()
	from, to := s.Duration*2/5, s.Duration*3/5
	full := exectrace.NewTiler(from, to, 50)
	if _, err := exectrace.Read(bytes.NewReader(data), full); err != nil {
		t.Fatal(err)
	}
	win := ix.Tiler(from, to, 50)
	n, err := ix.ReadWindow(bytes.NewReader(data), from, to, win)
	if err != nil {
		t.Fatal(err)
	}
	if n <= 0 || n >= int64(len(data)) {
		t.Errorf("ReadWindow read %d of %d bytes", n, len(data))
	}
	ft, wt := full.Tiles(), win.Tiles()
	if got, want := meanBusy(wt), meanBusy(ft); math.Abs(got-want) > 0.02 {
		t.Errorf("window read says %.3f Ps busy, full pass %.3f", got, want)
	}
	if len(wt.GC) != len(ft.GC) || len(wt.STW) != len(ft.STW) {
		t.Errorf("window read: %d GC and %d STW bands, full pass %d and %d", len(wt.GC), len(wt.STW), len(ft.GC), len(ft.STW))
	}
}

func TestScanIndexBadInput(t *testing.T) {
	for _, in := range [][]byte{nil, []byte("not a trace at all"), []byte("go 1.21 trace\x00\x00\x00")} {
		if _, err := exectrace.ScanIndex(bytes.NewReader(in)); err == nil {
			t.Errorf("ScanIndex(%q): no error", in)
		}
	}
}

// FuzzScanIndex scans any bytes: no panic, and generations that lie within
// the input.
func FuzzScanIndex(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := exectrace.ScanIndex(bytes.NewReader(data))
		if err != nil && ix == nil {
			return
		}
		for i := range ix.Generations() {
			if from, to := ix.GenerationTimes(i); to < from {
				t.Errorf("generation %d ends at %v, before it begins at %v", i, to, from)
			}
		}
		ix.ReadWindow(bytes.NewReader(data), 0, 1<<62, exectrace.NewAnalyzer())
	})
}

// TestScanIndexTimes: a generation's Sync event comes at the time ScanIndex
// reads from its batch headers, exactly, or just after the previous
// generation's last event when x/exp/trace moves it there (by 50 to 90 ms
// on a loaded machine).
func TestScanIndexTimes(t *testing.T) {
	data := tracefreqTrace(t, "find", 10000)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var s syncTimes
	if _, err := exectrace.Read(bytes.NewReader(data), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.at) != ix.Generations()+1 { // and a last Sync at the end
		t.Fatalf("%d Sync events, %d generations", len(s.at), ix.Generations())
	}
	if ix.Origin() != s.at[0] {
		t.Errorf("origin %v, first Sync at %v", ix.Origin(), s.at[0])
	}
	for i := range ix.Generations() {
		from, _ := ix.GenerationTimes(i)
		want := from
		if i > 0 {
			want = max(from, time.Duration(s.before[i]-s.at[0])+1)
		}
		if sync := time.Duration(s.at[i] - s.at[0]); sync != want {
			t.Errorf("generation %d begins at %v by its batches (the event before it at %v), at %v by its Sync event",
				i, from, time.Duration(s.before[i]-s.at[0]), sync)
		}
	}
	_, end := ix.GenerationTimes(ix.Generations() - 1)
	last := time.Duration(s.last - s.at[0])
	if d := end - last; d < -last/100 || d > last/100 {
		t.Errorf("the trace ends at %v by its batches, its last event is at %v", end, last)
	}
	ix.NoteEnd(ix.Generations()-1, last)
	if _, end := ix.GenerationTimes(ix.Generations() - 1); end != last {
		t.Errorf("after NoteEnd(%v), the last generation ends at %v", last, end)
	}
}

// syncTimes notes when the Sync events, the events just before them and
// the last event are.
type syncTimes struct {
	at, before []trace.Time
	last       trace.Time
}

func (s *syncTimes) Event(ev *trace.Event) {
	if ev.Kind() == trace.EventSync {
		s.at = append(s.at, ev.Time())
		s.before = append(s.before, s.last)
	} else {
		s.last = ev.Time()
	}
}
