package exectrace_test

import (
	"bytes"
	"math"
	"testing"

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
	if _, err := exectrace.Read(bytes.NewReader(data), a, ix.Sink()); err != nil {
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
		exectrace.Read(bytes.NewReader(data), ix.Sink())
		ix.ReadWindow(bytes.NewReader(data), 0, 1<<62, exectrace.NewAnalyzer())
	})
}
