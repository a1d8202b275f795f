package exectrace_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
)

// tracefreqTrace runs examples/tracefreq with the variant on n documents
// and returns its trace.
func tracefreqTrace(t *testing.T, variant string, n int) []byte {
	t.Helper()
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	out := filepath.Join(t.TempDir(), "trace.out")
	if b, err := exec.Command(bin, "-variant", variant, "-docs", strconv.Itoa(n), "-trace", out).CombinedOutput(); err != nil {
		t.Fatalf("tracefreq: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func summarize(t *testing.T, data []byte) (*exectrace.Summary, *exectrace.Analyzer) {
	t.Helper()
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(bytes.NewReader(data), a); err != nil {
		t.Fatal(err)
	}
	return a.Finish(), a
}

func TestSummaryOfTracefreq(t *testing.T) {
	const docs = 300
	s, _ := summarize(t, tracefreqTrace(t, "findNumCPUTasks", docs))
	if s.GOMAXPROCS < 1 || s.Duration <= 0 || s.Events == 0 {
		t.Fatalf("GOMAXPROCS %d, duration %v, %d events", s.GOMAXPROCS, s.Duration, s.Events)
	}
	regions := map[string]int64{}
	for _, r := range s.Regions {
		regions[r.Name] = r.Count
		if !(r.P50 <= r.P90 && r.P90 <= r.P99 && r.P99 <= r.Max && r.Max > 0) {
			t.Errorf("region %s: percentiles out of order: %+v", r.Name, r)
		}
	}
	if regions["searchDocument"] != docs {
		t.Errorf("searchDocument regions = %d, want %d", regions["searchDocument"], docs)
	}
	tasks := map[string]int64{}
	for _, tk := range s.Tasks {
		tasks[tk.Name] = tk.Count
	}
	if tasks["worker"] != int64(s.GOMAXPROCS) || tasks["findNumCPU"] != 1 {
		t.Errorf("tasks = %v, want %d workers and 1 findNumCPU", tasks, s.GOMAXPROCS)
	}
	if s.GoroutinesCreated < int64(s.GOMAXPROCS) {
		t.Errorf("goroutines created = %d, want at least one worker per P (%d)", s.GoroutinesCreated, s.GOMAXPROCS)
	}
	if s.States[exectrace.Running] <= 0 || s.ProcsBusyAvg <= 0 || s.ProcsBusyAvg > float64(s.GOMAXPROCS)+1e-9 {
		t.Errorf("running %v, busy %.2f of %d", s.States[exectrace.Running], s.ProcsBusyAvg, s.GOMAXPROCS)
	}
	var busy, width float64
	for _, p := range s.Timeline {
		busy += p.ProcsBusy * float64(p.Width)
		width += float64(p.Width)
	}
	if d := busy/width - s.ProcsBusyAvg; d > 0.01 || d < -0.01 {
		t.Errorf("timeline's mean busy Ps %.3f, summary's %.3f", busy/width, s.ProcsBusyAvg)
	}
}

func TestTruncatedTraceKeepsCompleteGenerations(t *testing.T) {
	// The runtime starts a generation every second: search long enough
	// for a few.
	data := tracefreqTrace(t, "find", 9000)
	full, _ := summarize(t, data)
	cut := cutInSecondGeneration(t, data)
	a := exectrace.NewAnalyzer()
	info, err := exectrace.Read(bytes.NewReader(cut), a)
	var te *exectrace.TruncatedError
	if !errors.As(err, &te) {
		t.Fatalf("Read of a cut trace: %v, want a *TruncatedError", err)
	}
	s := a.Finish()
	if info.Events == 0 || info.Events >= full.Events || te.Read != int64(len(cut)) || te.Valid.Bytes >= te.Read || te.Valid.Bytes == 0 {
		t.Errorf("valid %+v, read %d of %d bytes; full trace has %d events", info, te.Read, len(cut), full.Events)
	}
	if s.Duration <= 0 || s.Duration >= full.Duration {
		t.Errorf("truncated duration %v, full %v", s.Duration, full.Duration)
	}
}

// cutInSecondGeneration returns the trace cut in the middle of its second
// generation, so that one generation is complete.
func cutInSecondGeneration(t *testing.T, data []byte) []byte {
	t.Helper()
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Generations() < 2 {
		t.Skipf("the trace has %d generation; need 2 to cut one off", ix.Generations())
	}
	off, end := ix.GenerationBytes(1)
	return data[:off+(end-off)/2]
}

func TestBadInput(t *testing.T) {
	small, err := os.ReadFile("testdata/small.trace")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("profile"))
	zw.Close()
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	for _, tc := range []struct {
		name string
		data []byte
		want func(error) bool
	}{
		{"empty", nil, isNotTrace},
		{"random", random, isNotTrace},
		{"gzip", gz.Bytes(), isNotTrace},
		{"go1.21", append([]byte("go 1.21 trace\x00\x00\x00"), small[16:]...), func(err error) bool {
			var ve *exectrace.VersionError
			return errors.As(err, &ve) && ve.GoVersion == 21
		}},
		{"go1.99", append([]byte("go 1.99 trace\x00\x00\x00"), small[16:]...), func(err error) bool { return err != nil }},
		{"header only", small[:16], func(err error) bool { return err != nil }},
		{"flipped bytes", flip(small, 200), func(err error) bool { return err != nil }},
	} {
		_, err := exectrace.Read(bytes.NewReader(tc.data), exectrace.NewAnalyzer())
		if !tc.want(err) {
			t.Errorf("%s: Read error %v", tc.name, err)
		}
	}
}

func isNotTrace(err error) bool { return errors.Is(err, exectrace.ErrNotTrace) }

func flip(b []byte, from int) []byte {
	b = slices.Clone(b)
	for i := from; i < len(b); i += 7 {
		b[i] ^= 0x5a
	}
	return b
}

// FuzzRead reads any bytes as a trace: no panic, and a summary and valid
// profiles whatever the reader made of them. It reads in one goroutine
// and checks the profiles without gzipping them, so that each input costs
// its own events only (it used to cost 30 ms: about 1,000 inputs in 30 s).
func FuzzRead(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		a := exectrace.NewAnalyzer()
		p := exectrace.NewPerfetto(io.Discard)
		tl := exectrace.NewTiler(0, 0, 100)
		exectrace.ReadInline(bytes.NewReader(data), a, p, tl)
		tl.Tiles()
		s := a.Finish()
		s.WriteText(io.Discard)
		if _, err := s.MarshalJSON(); err != nil {
			t.Fatal(err)
		}
		for k := range 4 {
			if err := a.Profile(exectrace.ProfileKind(k)).CheckValid(); err != nil {
				t.Fatalf("%v profile: %v", exectrace.ProfileKind(k), err)
			}
		}
		p.Close()
		if s.Duration < 0 || s.Duration > 1000*time.Hour {
			t.Logf("duration %v", s.Duration)
		}
	})
}

// TestFlightRecorderSnapshot reads a snapshot of runtime/trace's flight
// recorder, which starts in the middle of the program's life.
func TestFlightRecorderSnapshot(t *testing.T) {
	prog := testprog.BuildSource(t, `package main

import (
	"context"
	"os"
	"runtime/trace"
	"sync"
	"time"
)

func main() {
	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: time.Second})
	if err := fr.Start(); err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			ctx, task := trace.NewTask(context.Background(), "spin")
			defer task.End()
			trace.WithRegion(ctx, "work", func() {
				deadline := time.Now().Add(time.Duration(100+50*i) * time.Millisecond)
				for time.Now().Before(deadline) {
				}
			})
		})
	}
	wg.Wait()
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if _, err := fr.WriteTo(f); err != nil {
		panic(err)
	}
	f.Close()
}
`)
	out := filepath.Join(t.TempDir(), "snapshot.trace")
	if b, err := exec.Command(prog, out).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := summarize(t, data)
	if s.Duration <= 0 || s.States[exectrace.Running] <= 0 {
		t.Errorf("snapshot: duration %v, running %v", s.Duration, s.States[exectrace.Running])
	}
	regions := 0
	for _, r := range s.Regions {
		if r.Name == "work" {
			regions = int(r.Count)
		}
	}
	if regions == 0 || regions > 4 {
		t.Errorf("%d work regions in the snapshot, want 1 to 4", regions)
	}
}
