package exectrace_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/exp/trace"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/tracegen/craft"
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
// the input, which a window read reads. The read is in one goroutine, to
// a Tiler, so that each input costs its own events only.
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
			if off, end := ix.GenerationBytes(i); off < 0 || end < off || end > int64(len(data)) {
				t.Errorf("generation %d at bytes %d to %d of %d", i, off, end, len(data))
			}
		}
		if n := ix.Generations(); n > 0 {
			ix.ReadGenerationsInline(bytes.NewReader(data), 0, n, ix.Tiler(0, 1<<62, 100))
		}
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

// crafted returns testdata/small.trace followed by n generations of
// package craft.
func crafted(t *testing.T, n int, o craft.Options) []byte {
	t.Helper()
	small, err := os.ReadFile("testdata/small.trace")
	if err != nil {
		t.Fatal(err)
	}
	buf := bytes.NewBuffer(small)
	if err := craft.Append(buf, n, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestScanIndexRefusesCraftedGenerations appends generations of one sync
// batch each to a real trace, as the hostile trace of issue 24.8 does (5.36
// million of them made perflab web index 1 GB, show a trace of negative
// length and read for days): ScanIndex stops at the first that lacks a
// clock snapshot, begins before the one before it or is one too many,
// with ErrCorrupt, and keeps only the real trace's generations.
func TestScanIndexRefusesCraftedGenerations(t *testing.T) {
	real, err := exectrace.ScanIndex(bytes.NewReader(crafted(t, 0, craft.Options{})))
	if err != nil {
		t.Fatal(err)
	}
	later := func(i int) uint64 { return 1<<60 + uint64(i)*1e6 } // after the real trace, a millisecond apart
	for _, tc := range []struct {
		name string
		n    int
		o    craft.Options
		why  string
	}{
		{"no clock snapshot", 1000, craft.Options{First: 1 << 20, Tick: later}, "no clock snapshot"},
		{"the clock goes back", 1000, craft.Options{First: 1 << 20, Snapshot: true}, "begins before the generation before it"},
		{"numbered back", 1000, craft.Options{First: 1, Snapshot: true, Tick: later}, "numbered 1 after"},
		{"too many", exectrace.MaxGenerations, craft.Options{First: 1 << 20, Snapshot: true, Tick: later}, "more than 262144 generations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ix, err := exectrace.ScanIndex(bytes.NewReader(crafted(t, tc.n, tc.o)))
			if !errors.Is(err, exectrace.ErrCorrupt) || !strings.Contains(err.Error(), tc.why) {
				t.Errorf("err = %v, want ErrCorrupt: %s", err, tc.why)
			}
			if ix == nil {
				t.Fatal("no index")
			}
			want := real.Generations()
			if tc.name == "too many" {
				want = exectrace.MaxGenerations
			}
			if ix.Generations() != want {
				t.Errorf("%d generations indexed, want %d", ix.Generations(), want)
			}
			if _, end := ix.GenerationTimes(ix.Generations() - 1); end < 0 {
				t.Errorf("the trace ends %v after it begins", end)
			}
		})
	}
}
