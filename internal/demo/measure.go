package demo

import (
	"bytes"
	"context"
	"fmt"
	"github.com/perflab/perflab/internal/cputime"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/examples/havlak"
)

// A Measurement is what one run of the benchmark cost.
type Measurement struct {
	Loops      int           // loops found by the first search
	Wall       time.Duration // elapsed time
	CPU        time.Duration // CPU time of the process, where the OS reports it
	PeakMemory uint64        // most memory mapped from the OS and not released, in bytes
	Allocs     uint64        // heap objects allocated
	AllocBytes uint64        // heap bytes allocated
	CPUProfile []byte        // the run's CPU profile
}

// The runtime/metrics samples a Measurement is computed from.
var metricNames = []string{
	"/gc/heap/allocs:objects",
	"/gc/heap/allocs:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/released:bytes",
}

func readMetrics() []metrics.Sample {
	s := make([]metrics.Sample, len(metricNames))
	for i, name := range metricNames {
		s[i].Name = name
	}
	metrics.Read(s)
	return s
}

func u64(s metrics.Sample) uint64 {
	if s.Value.Kind() == metrics.KindUint64 {
		return s.Value.Uint64()
	}
	return 0
}

// memoryInUse is memory mapped from the OS and not given back: the Go
// runtime's view of its resident set.
func memoryInUse(s []metrics.Sample) uint64 {
	return u64(s[2]) - u64(s[3])
}

// measure runs the benchmark with variant v and reps repetitions under the
// CPU profiler, sampling memory use every few milliseconds. progress is
// called after each search. It returns early with ctx's error if ctx ends.
func measure(ctx context.Context, v havlak.Variant, reps int, progress func(done, total int)) (*Measurement, error) {
	runtime.GC()
	debug.FreeOSMemory() // start from what the previous run left mapped
	var prof bytes.Buffer
	if err := pprof.StartCPUProfile(&prof); err != nil {
		return nil, fmt.Errorf("starting the CPU profiler: %w", err)
	}
	before := readMetrics()
	cpu0 := cputime.Self()
	start := time.Now()
	peak := memoryInUse(before)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { // sample memory in use until stopped; peak is read after wg.Wait
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				peak = max(peak, memoryInUse(readMetrics()))
			}
		}
	})
	// An interrupted run goes on in the background until its search ends;
	// it must not draw progress after measure has returned.
	var interrupted atomic.Bool
	report := func(done, total int) {
		if !interrupted.Load() {
			progress(done, total)
		}
	}
	done := make(chan int, 1)
	go func() { done <- havlak.Run(v, reps, report) }()
	var loops int
	select {
	case loops = <-done:
	case <-ctx.Done():
		interrupted.Store(true)
		close(stop)
		pprof.StopCPUProfile()
		return nil, fmt.Errorf("%v run interrupted: %w", v, ctx.Err())
	}
	wall := time.Since(start)
	cpu := cputime.Self() - cpu0
	after := readMetrics()
	close(stop)
	wg.Wait()
	pprof.StopCPUProfile()

	return &Measurement{
		Loops:      loops,
		Wall:       wall,
		CPU:        cpu,
		PeakMemory: max(peak, memoryInUse(after)),
		Allocs:     u64(after[0]) - u64(before[0]),
		AllocBytes: u64(after[1]) - u64(before[1]),
		CPUProfile: prof.Bytes(),
	}, nil
}
