package exectrace_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
	"golang.org/x/exp/trace"
)

// ringTrace returns a trace of internal/tracegen's token ring, about 20 MB,
// generated once into the temporary directory and reused.
func ringTrace(b *testing.B) []byte {
	b.Helper()
	path := filepath.Join(os.TempDir(), "perflab-tracegen", "ring-bench-20MB.trace")
	if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
		return data
	}
	bin := testprog.BuildPackage(b, "github.com/perflab/perflab/internal/tracegen")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if out, err := exec.Command(bin, "-size", "20MB", "-o", path+".tmp").CombinedOutput(); err != nil {
		b.Fatalf("tracegen: %v\n%s", err, out)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkRead: the summary and the profiles of a 20 MB trace, in one pass.
func BenchmarkRead(b *testing.B) {
	data := ringTrace(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		a := exectrace.NewAnalyzer()
		if _, err := exectrace.Read(bytes.NewReader(data), a); err != nil {
			b.Fatal(err)
		}
		a.Finish()
		a.WriteProfile(io.Discard, exectrace.ProfileSched)
	}
}

// nopSink takes events and does nothing: the reader's own cost.
type nopSink struct{}

func (nopSink) Event(*trace.Event) {}

// BenchmarkReadOnly is the cost of x/exp/trace's reader alone, the floor
// of BenchmarkRead.
func BenchmarkReadOnly(b *testing.B) {
	data := ringTrace(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := exectrace.Read(bytes.NewReader(data), nopSink{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOverview: the whole-trace tiles of perflab web's timeline, read
// generation by generation by one worker and by one per core; first-ms is
// the time to the first generation read, when perflab web starts serving.
func BenchmarkOverview(b *testing.B) {
	data := ringTrace(b)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var first time.Duration
			for b.Loop() {
				start := time.Now()
				o := exectrace.NewOverview(ix, 8192)
				done := make(chan error, 1)
				go func() { done <- o.Load(b.Context(), bytes.NewReader(data), workers, exectrace.NewSpanIndex(ix, 8192)) }()
				if err := o.WaitFor(b.Context(), 1); err != nil {
					b.Fatal(err)
				}
				first += time.Since(start)
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "first-ms")
		})
	}
}
