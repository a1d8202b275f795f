package collect_test

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/collect"
)

// pingPong runs pairs of goroutines that hand a token back and forth, the
// workload whose execution trace grows fastest, until the returned
// function (also called at the test's end) stops them.
func pingPong(t *testing.T, pairs int) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for range pairs {
		a, b := make(chan int), make(chan int)
		wg.Go(func() {
			for {
				select {
				case a <- 1:
				case <-done:
					return
				}
				select {
				case <-b:
				case <-done:
					return
				}
			}
		})
		wg.Go(func() {
			for {
				select {
				case <-a:
				case <-done:
					return
				}
				select {
				case b <- 1:
				case <-done:
					return
				}
			}
		})
	}
	stop = func() { once.Do(func() { close(done) }); wg.Wait() }
	t.Cleanup(stop)
	return stop
}

// heapPeak samples the live heap every few milliseconds until stop is
// called, which returns the largest value seen.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// TestTraceStreams fetches a trace of a program busy switching goroutines
// and checks that the server streamed it: the heap grew by a small part
// of the trace's size, and the trace received is whole.
func TestTraceStreams(t *testing.T) {
	stopWork := pingPong(t, 32)
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"
	file := filepath.Join(t.TempDir(), "trace.out")
	out, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	runtime.GC()
	var before [1]metrics.Sample
	before[0].Name = "/memory/classes/heap/objects:bytes"
	metrics.Read(before[:])
	stop := heapPeak()
	resp, err := http.Get(base + "trace?seconds=1")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(out, resp.Body)
	resp.Body.Close()
	peak := stop()
	stopWork()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("trace: %s after %d bytes, %v", resp.Status, n, err)
	}
	growth := int64(peak) - int64(before[0].Value.Uint64())
	t.Logf("trace of %d bytes; heap grew by %d bytes at most", n, growth)
	if n < 12<<20 {
		t.Skipf("the machine made only %d bytes of trace, too little to tell streaming from buffering", n)
	}
	if growth > n/2 {
		t.Errorf("serving a trace of %d bytes grew the heap by %d bytes: it was buffered, not streamed", n, growth)
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if events := readTraceFrom(t, "trace", bufio.NewReader(out)); events == 0 {
		t.Errorf("streamed trace holds no events")
	}
}
