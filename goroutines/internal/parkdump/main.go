// Command parkdump parks many goroutines, in a few kinds of wait, and
// writes the goroutine profile at debug=2 (the text of
// /debug/pprof/goroutine?debug=2, one stack per goroutine) to standard
// output: the input of scripts/bench-goroutines.
//
//	parkdump [-n 200000] > dump.txt
//
// The stacks are shallow, as in a server's idle connections, so that
// 200,000 of them stay under the 64 MB at which the runtime cuts the dump.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sync"
	"time"
)

var (
	started sync.WaitGroup
	ch      = make(chan int)
	a, b    = make(chan int), make(chan int) // never ready
	mu      sync.Mutex
)

func main() {
	n := flag.Int("n", 200000, "goroutines to park")
	flag.Parse()
	mu.Lock()
	started.Add(*n)
	for i := 0; i < *n; i++ {
		switch i % 5 {
		case 0:
			go receiver()
		case 1:
			go selecter()
		case 2:
			go sleeper()
		case 3:
			go nested(2)
		case 4:
			go locker()
		}
	}
	started.Wait()
	time.Sleep(200 * time.Millisecond) // let the last ones park
	if err := pprof.Lookup("goroutine").WriteTo(os.Stdout, 2); err != nil {
		fmt.Fprintln(os.Stderr, "parkdump:", err)
		os.Exit(1)
	}
}

func receiver() {
	started.Done()
	<-ch
}

func selecter() {
	started.Done()
	select {
	case <-a:
	case b <- 1:
	}
}

func sleeper() {
	started.Done()
	time.Sleep(time.Hour)
}

func locker() {
	started.Done()
	mu.Lock()
}

//go:noinline
func nested(depth int) {
	if depth > 0 {
		nested(depth - 1)
		return
	}
	receiver()
}
