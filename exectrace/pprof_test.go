package exectrace_test

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/exectrace"
)

// wakeTrace writes a Go 1.25 trace in which goroutines 1 and 2 wake each
// other on one P: g1's wait for the P starts with no stack, then g2's
// with a stack of one 0x0 frame, or the other way round if zeroFirst.
// go tool trace counts both waits under one stack and shows it with the
// frames of the wait that ended last.
func wakeTrace(zeroFirst bool) []byte {
	const (
		stacks, stack, strs, str, freq, procsChange, procStatus = 2, 3, 4, 5, 8, 9, 13
		goStart, goBlock, goUnblock, goStatus, sync, clock      = 16, 20, 21, 25, 50, 51
		noM                                                     = math.MaxUint64
		runnable, running                                       = 1, 2
		chanRecv, mainF, mainG, mainGo                          = 1, 2, 3, 4 // strings
		stackF, stackG, stackZero                               = 1, 2, 3
	)
	uv := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.AppendUvarint(b, v)
		}
		return b
	}
	ev := func(typ byte, args ...uint64) []byte { return append([]byte{typ}, uv(args...)...) }
	b := []byte("go 1.25 trace\x00\x00\x00")
	batch := func(m, ts uint64, evs ...[]byte) {
		data := slices.Concat(evs...)
		b = append(append(b, 1), uv(1, m, ts, uint64(len(data)))...)
		b = append(b, data...)
	}
	first, second := uint64(0), uint64(stackZero)
	if zeroFirst {
		first, second = second, first
	}
	batch(noM, 100, []byte{sync}, ev(freq, 1e9), ev(clock, 1, 1000, 1740755049, 0))
	batch(1, 200,
		ev(procStatus, 1, 0, 1),
		ev(goStatus, 1, 1, 1, running),
		ev(goStatus, 1, 2, noM, runnable),
		ev(procsChange, 1, 1, 0),
		ev(goBlock, 1000, chanRecv, stackF), // g1 waits
		ev(goStart, 1000, 2, 1),             // g2 runs
		ev(goUnblock, 1000, 1, 1, first),    // and wakes g1
		ev(goBlock, 1000, chanRecv, stackG), // g2 waits
		ev(goStart, 1000, 1, 2),             // g1 runs: its wait for the P ends
		ev(goUnblock, 1000, 2, 2, second),   // and wakes g2
		ev(goBlock, 1000, chanRecv, stackF), // g1 waits
		ev(goStart, 1000, 2, 3),             // g2 runs: its wait for the P ends
	)
	batch(noM, 101, []byte{stacks},
		ev(stack, stackF, 1, 0x1000, mainF, mainGo, 10),
		ev(stack, stackG, 1, 0x2000, mainG, mainGo, 20),
		ev(stack, stackZero, 1, 0, 0, 0, 0))
	s := func(id uint64, v string) []byte { return append(ev(str, id), append(uv(uint64(len(v))), v...)...) }
	batch(noM, 102, []byte{strs}, s(chanRecv, "chan receive"), s(mainF, "main.f"), s(mainG, "main.g"), s(mainGo, "main.go"))
	return b
}

// samples sums a profile's samples by their frames, as "func@pc" leaf
// first: two profiles with the same samples report identically.
func samples(p *profile.Profile) map[string][2]int64 {
	out := map[string][2]int64{}
	for _, s := range p.Sample {
		var fs []string
		for _, l := range s.Location {
			for _, ln := range l.Line {
				fs = append(fs, fmt.Sprintf("%s@%#x:%d", ln.Function.Name, l.Address, ln.Line))
			}
		}
		k := strings.Join(fs, " < ")
		v := out[k]
		out[k] = [2]int64{v[0] + s.Value[0], v[1] + s.Value[1]}
	}
	return out
}

// TestZeroFrameStackMatchesGoToolTrace: a wait that begins with a stack
// of one 0x0 frame (traces taken with GODEBUG=traceadvanceperiod=0 have
// them) counts with the waits that have no stack, under the frames of the
// one that ended last, as go tool trace -pprof=sched shows it: an
// <unknown> frame when the 0x0 one did.
func TestZeroFrameStackMatchesGoToolTrace(t *testing.T) {
	gotrace := goToolTrace(t)
	for _, zeroFirst := range []bool{false, true} {
		data := wakeTrace(zeroFirst)
		tr := filepath.Join(t.TempDir(), "wake.trace")
		if err := os.WriteFile(tr, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(gotrace, "-pprof=sched", tr).Output()
		if err != nil {
			t.Fatalf("go tool trace -pprof=sched: %v", err)
		}
		theirs, err := profile.ParseData(out)
		if err != nil {
			t.Fatal(err)
		}
		_, a := summarize(t, data)
		want, got := samples(theirs), samples(a.Profile(exectrace.ProfileSched))
		if !maps.Equal(got, want) {
			t.Errorf("0x0 frame first %v: samples %v, go tool trace's %v", zeroFirst, got, want)
		}
		if _, zero := want["@0x0:0"]; zero == zeroFirst {
			t.Errorf("0x0 frame first %v: go tool trace shows %v: the test's trace does not test what it should", zeroFirst, want)
		}
	}
}
