// Command collectprog is the program collect's tests profile: it starts a
// collect session from its flags (go test's, plus -kinds and -dir) or its
// environment, runs a workload with a known shape, and stops the session.
//
// The workload spends about half its time on CPU in busyWork and half
// asleep in sleepyWork, allocates in allocWork, blocks on a channel in
// chanBlock and contends for a mutex in lockWork, so each profile kind
// has something to find. With -wait it prints "ready" and keeps working
// until a signal ends it.
package main

import (
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/perflab/perflab/collect"
)

func main() {
	prof := collect.Flags(flag.CommandLine)
	kinds := flag.String("kinds", "", "comma-separated profile kinds for collect.Profiles")
	dir := flag.String("dir", "", "directory for collect.Dir")
	work := flag.Duration("work", 400*time.Millisecond, "how long the workload runs")
	wait := flag.Bool("wait", false, "print ready, then work until a signal arrives")
	flag.Parse()

	var opts []collect.Option
	if *kinds != "" {
		ks, err := collect.ParseKinds(*kinds)
		if err != nil {
			fmt.Fprintln(os.Stderr, "collectprog:", err)
			os.Exit(2)
		}
		opts = append(opts, collect.Profiles(ks...))
	}
	if *dir != "" {
		opts = append(opts, collect.Dir(*dir))
	}
	s := prof.Start(opts...)
	if *wait {
		fmt.Println("ready")
		for {
			workload(*work)
		}
	}
	workload(*work)
	if err := s.Stop(); err != nil {
		os.Exit(1) // Stop has already reported the error on stderr
	}
	for _, f := range s.Files() {
		fmt.Println(f)
	}
}

var sink [][]byte

// workload runs every kind of work for about d.
func workload(d time.Duration) {
	var wg sync.WaitGroup
	wg.Go(func() { busyWork(d / 2) })
	wg.Go(func() { sleepyWork(d / 2) })
	wg.Go(func() { chanBlock(d / 4) })
	wg.Go(func() { lockWork(d / 4) })
	wg.Wait()
	busyWork(d / 2)
	allocWork()
}

//go:noinline
func busyWork(d time.Duration) {
	x := uint64(1)
	for end := time.Now().Add(d); time.Now().Before(end); {
		for range 10000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if x == 42 {
		fmt.Println(x)
	}
}

//go:noinline
func sleepyWork(d time.Duration) { time.Sleep(d) }

//go:noinline
func chanBlock(d time.Duration) {
	ch := make(chan int)
	go func() { time.Sleep(d); ch <- 1 }()
	<-ch
}

//go:noinline
func lockWork(d time.Duration) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for end := time.Now().Add(d); time.Now().Before(end); {
				mu.Lock()
				time.Sleep(100 * time.Microsecond)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

//go:noinline
func allocWork() {
	for range 256 {
		sink = append(sink, allocBlock())
	}
	if len(sink) > 4096 {
		sink = sink[:0]
	}
}

// allocBlock makes exactly one allocation of 64 KiB.
//
//go:noinline
func allocBlock() []byte { return make([]byte, 64<<10) }
