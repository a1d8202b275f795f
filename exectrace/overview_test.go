package exectrace_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
)

// A shortGenTrace is a trace of tracefreq with a generation every 20 ms,
// made once for all the tests that need several generations.
type shortGenTrace struct {
	variant, docs string
	once          sync.Once
	data          []byte
	err           error
}

var (
	manyGenerations      = &shortGenTrace{variant: "find", docs: "4000"}
	manyGenerationsTasks = &shortGenTrace{variant: "findNumCPUTasks", docs: "3000"}
)

func manyGenerationsTrace(t *testing.T) []byte      { return manyGenerations.get(t) }
func manyGenerationsTasksTrace(t *testing.T) []byte { return manyGenerationsTasks.get(t) }

func (s *shortGenTrace) get(t *testing.T) []byte {
	t.Helper()
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	s.once.Do(func() {
		dir, err := os.MkdirTemp("", "perflab-overview")
		if err != nil {
			s.err = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "trace.out")
		cmd := exec.Command(bin, "-variant", s.variant, "-docs", s.docs, "-trace", out)
		cmd.Env = append(os.Environ(), "GODEBUG=traceadvanceperiod=20000000")
		if b, err := cmd.CombinedOutput(); err != nil {
			s.err, s.data = err, b
			return
		}
		s.data, s.err = os.ReadFile(out)
	})
	if s.err != nil {
		t.Fatalf("tracefreq: %v\n%s", s.err, s.data)
	}
	return s.data
}

// TestOverviewMatchesOnePass: the overview read generation by generation,
// two at a time, draws the trace as one pass over it does: the same Ps
// busy, goroutines alive and GC cycles, and the same end.
func TestOverviewMatchesOnePass(t *testing.T) {
	data := manyGenerationsTrace(t)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Generations() < 4 {
		t.Fatalf("%d generations; the test needs 4", ix.Generations())
	}
	o := exectrace.NewOverview(ix, 2000)
	if _, p, _ := o.Tiles(); p.Read != 0 || len(p.Pending) != 1 || p.Pending[0].Start != 0 {
		t.Errorf("before Load: progress %+v, want nothing read and the whole trace pending", p)
	}
	if err := o.Load(t.Context(), bytes.NewReader(data), 2, nil); err != nil {
		t.Fatal(err)
	}
	got, p, notes := o.Tiles()
	if !p.Done() || len(p.Pending) != 0 || len(notes) != 0 {
		t.Errorf("after Load: progress %+v, notes %q", p, notes)
	}
	one := exectrace.NewTiler(0, 0, 2000)
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(bytes.NewReader(data), one, a); err != nil {
		t.Fatal(err)
	}
	want, sum := one.Tiles(), a.Finish()
	if o.End() != sum.Duration {
		t.Errorf("overview ends at %v, the trace at %v", o.End(), sum.Duration)
	}
	if g, w := meanBusy(got), meanBusy(want); math.Abs(g-w) > 0.02*math.Max(1, w) {
		t.Errorf("overview: %.3f Ps busy on average, one pass %.3f", g, w)
	}
	if g, w := meanOf(got, got.Goroutines), meanOf(want, want.Goroutines); math.Abs(g-w) > 0.03*w {
		t.Errorf("overview: %.1f goroutines alive on average, one pass %.1f", g, w)
	}
	if d := len(got.GC) - len(want.GC); d < -1 || d > 1 {
		t.Errorf("overview: %d GC bands, one pass %d", len(got.GC), len(want.GC))
	}
	for i := range ix.Generations() {
		from, to := ix.GenerationTimes(i)
		if to < from || to > sum.Duration {
			t.Errorf("generation %d: %v to %v, trace %v", i, from, to, sum.Duration)
		}
	}
}

// meanOf is the mean of a per-column series over the tiles' time.
func meanOf(tl *exectrace.Tiles, v []float32) float64 {
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	return sum / float64(tl.Columns)
}

// TestOverviewCorruptGeneration: a generation whose bytes are broken is
// left out with a note naming it; the others are read.
func TestOverviewCorruptGeneration(t *testing.T) {
	data := bytes.Clone(manyGenerationsTrace(t))
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	off, end := ix.GenerationBytes(1)
	for i := off + (end-off)/2; i < end && i < off+(end-off)/2+64; i++ {
		data[i] = 0xff
	}
	ix, err = exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil || ix.Generations() < 4 {
		t.Skipf("the corruption broke the index (%v): nothing to test here", err)
	}
	o := exectrace.NewOverview(ix, 500)
	if err := o.Load(t.Context(), bytes.NewReader(data), 2, nil); err != nil {
		t.Fatal(err)
	}
	tl, p, notes := o.Tiles()
	if len(notes) != 1 || !strings.Contains(notes[0], "generation 2 of") {
		t.Errorf("notes %q, want one about generation 2", notes)
	}
	if !p.Done() || meanBusy(tl) <= 0 {
		t.Errorf("progress %+v, %.3f Ps busy: the other generations are not read", p, meanBusy(tl))
	}
}

// TestOverviewStops: Load returns when its context is done.
func TestOverviewStops(t *testing.T) {
	data := manyGenerationsTrace(t)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	o := exectrace.NewOverview(ix, 500)
	if err := o.Load(ctx, bytes.NewReader(data), 2, nil); err == nil {
		t.Error("Load with a done context: no error")
	}
	if _, p, _ := o.Tiles(); p.Done() {
		t.Errorf("Load with a done context read everything: %+v", p)
	}
}
