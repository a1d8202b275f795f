package testprog

import (
	"io"
	"net"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// HeapPeak samples the heap's objects every couple of milliseconds until
// stop is called, which returns the largest value seen, in bytes.
func HeapPeak() (stop func() uint64) {
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
	var once sync.Once
	return func() uint64 { once.Do(func() { close(done); wg.Wait() }); return peak.Load() }
}

// HeapAlloc returns the bytes the heap holds after a collection.
func HeapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// StillOpen counts the connections their server has not closed within
// wait. They are read at once, so that one the server holds does not use
// up the time of those after it.
func StillOpen(conns []net.Conn, wait time.Duration) int {
	deadline := time.Now().Add(wait)
	var open atomic.Int32
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			c.SetReadDeadline(deadline)
			_, err := io.Copy(io.Discard, c)
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				open.Add(1) // the server still holds it (closed ones end in EOF or a reset)
			}
		})
	}
	wg.Wait()
	return int(open.Load())
}
