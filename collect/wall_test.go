package collect

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// parked starts n goroutines blocked on a channel and returns a function
// that releases them.
func parked(n int) func() {
	ch := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { <-ch })
	}
	return func() { close(ch); wg.Wait() }
}

// BenchmarkWallSample measures one wall-clock sample (every goroutine's
// stack read and counted), the cost paid ~99 times a second.
func BenchmarkWallSample(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("goroutines=%d", n), func(b *testing.B) {
			release := parked(n)
			defer release()
			p := &wallProfile{stacks: make(map[string]*wallStack)}
			var recs []runtime.StackRecord
			var key []byte
			b.ReportAllocs()
			for b.Loop() {
				recs = goroutineStacks(recs)
				for i := range recs {
					key = p.add(key, recs[i].Stack(), 1)
				}
			}
		})
	}
}

// BenchmarkWallWrite measures turning samples into a profile file.
func BenchmarkWallWrite(b *testing.B) {
	release := parked(100)
	defer release()
	p := &wallProfile{stacks: make(map[string]*wallStack)}
	var key []byte
	for i, rec := range goroutineStacks(nil) {
		key = p.add(key, rec.Stack(), int64(i+1))
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := p.Write(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWallLeavesOutItself checks the sampler's own goroutine is left
// out of the profile while a parked goroutine of the program is in it.
func TestWallLeavesOutItself(t *testing.T) {
	release := parked(1)
	defer release()
	s := startWall(1000)
	time.Sleep(300 * time.Millisecond) // some ticks, even on a loaded machine
	prof := s.stop().build()
	var mine, parkedSeen bool
	for _, smp := range prof.Sample {
		for _, loc := range smp.Location {
			for _, ln := range loc.Line {
				mine = mine || isMachinery(ln.Function.Name)
				parkedSeen = parkedSeen || strings.HasSuffix(ln.Function.Name, "collect.parked.func1")
			}
		}
	}
	if mine || !parkedSeen {
		t.Errorf("profiler's own goroutine in profile: %v; parked goroutine in profile: %v", mine, parkedSeen)
	}
}
