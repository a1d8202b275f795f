package reporttest

// workload is the program Generate runs: CPU-bound recursion over a tree
// with map updates (some of it under pprof labels), allocation-heavy
// building, lock contention, channel blocking and many parked goroutines.
// It writes its profiles into the directory named by its argument.
const workload = `package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

type node struct {
	kids []*node
	v    int
}

func build(d int) *node {
	n := &node{v: d}
	if d > 0 {
		for i := 0; i < 3; i++ {
			n.kids = append(n.kids, build(d-1))
		}
	}
	return n
}

func dfs(n *node, m map[int]int) int {
	s := n.v
	m[n.v]++
	for _, k := range n.kids {
		s += dfs(k, m)
	}
	return s
}

//go:noinline
func mix(x int) int { return x*31 + 7 }

func fold(x int) int { return x ^ (x >> 3) }

var sink [][]byte

func cpuWork(until time.Time) int {
	x := 0
	for time.Now().Before(until) {
		t := build(5)
		x += dfs(t, map[int]int{})
		for i := 0; i < 2000; i++ {
			x = mix(fold(x))
		}
	}
	return x
}

func allocWork(until time.Time) {
	for time.Now().Before(until) {
		for i := 0; i < 100; i++ {
			sink = append(sink, make([]byte, 64<<(i%8)))
		}
		if len(sink) > 2000 {
			sink = sink[:0]
		}
	}
}

func lockWork(until time.Time, mu *sync.Mutex) {
	for time.Now().Before(until) {
		mu.Lock()
		time.Sleep(50 * time.Microsecond)
		mu.Unlock()
	}
}

func chanWork(until time.Time) {
	ch := make(chan int)
	go func() {
		for time.Now().Before(until) {
			time.Sleep(100 * time.Microsecond)
			ch <- 1
		}
		close(ch)
	}()
	for range ch {
	}
}

func phase(d time.Duration) {
	until := time.Now().Add(d)
	var wg sync.WaitGroup
	var mu sync.Mutex
	run := func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	for i := 0; i < 2; i++ {
		labels := pprof.Labels("worker", fmt.Sprintf("w%d", i), "kind", "cpu")
		run(func() { pprof.Do(context.Background(), labels, func(context.Context) { cpuWork(until) }) })
	}
	run(func() { cpuWork(until) })
	run(func() { allocWork(until) })
	for i := 0; i < 3; i++ {
		run(func() { lockWork(until, &mu) })
	}
	run(func() { chanWork(until) })
	wg.Wait()
}

func cpuProfile(file string, d time.Duration) {
	f, err := os.Create(file)
	check(err)
	check(pprof.StartCPUProfile(f))
	phase(d)
	pprof.StopCPUProfile()
	check(f.Close())
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	dir := os.Args[1]
	runtime.MemProfileRate = 4096
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	cpuProfile(filepath.Join(dir, "cpu.pb.gz"), 1200*time.Millisecond)
	cpuProfile(filepath.Join(dir, "cpu2.pb.gz"), 600*time.Millisecond)
	parked := make(chan struct{})
	for i := 0; i < 200; i++ {
		go func() { <-parked }()
	}
	for _, k := range []string{"heap", "allocs", "block", "mutex", "goroutine", "threadcreate"} {
		for debug, ext := range []string{".pb.gz", ".txt"} {
			f, err := os.Create(filepath.Join(dir, k+ext))
			check(err)
			check(pprof.Lookup(k).WriteTo(f, debug))
			check(f.Close())
		}
	}
	close(parked)
}
`
