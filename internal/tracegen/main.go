// Command tracegen writes a large execution trace for benchmarks: a ring
// of goroutines passes a token around until the trace reaches a size,
// each hand-over blocking one goroutine on a channel and waking the next.
// Tasks and regions mark every lap, so readers of the trace have all kinds
// of events to deal with.
//
//	go run ./internal/tracegen -size 200MB -o big.trace
//
// With -append_generations N, N crafted generations follow the real
// trace (package craft): the hostile input of scripts/hostile/web, a
// small trace and 5,360,000 generations in 100 MB.
//
//	go run ./internal/tracegen -size 100kB -append_generations 5360000 -o hostile.trace
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/trace"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/internal/tracegen/craft"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "tracegen: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("tracegen", flag.ContinueOnError)
	size := fs.String("size", "200MB", "stop once the trace has this many bytes (kB, MB, GB)")
	n := fs.Int("goroutines", 1000, "goroutines in the ring")
	out := fs.String("o", "trace.out", "write the trace to `file`")
	extra := fs.Int("append_generations", 0, "append `N` crafted one-batch generations (a hostile trace)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	limit, err := parseSize(*size)
	if err != nil {
		return fmt.Errorf("-size: %w", err)
	}
	if *n < 2 {
		return errors.New("-goroutines: want at least 2")
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := trace.Start(f); err != nil {
		return err
	}
	laps := ring(*n, func() bool {
		st, err := f.Stat()
		return err != nil || st.Size() >= limit
	})
	trace.Stop()
	if *extra > 0 {
		if err := craft.Append(f, *extra, craft.Options{First: 1 << 20}); err != nil {
			return err
		}
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Printf("tracegen: %d goroutines, %d laps, %d bytes in %s\n", *n, laps, st.Size(), *out)
	return f.Close()
}

// ring passes a token around n goroutines until done says so, checking
// after every lap, and returns the number of laps.
func ring(n int, done func() bool) int {
	chans := make([]chan int, n)
	for i := range chans {
		chans[i] = make(chan int)
	}
	var stop atomic.Bool
	finished := make(chan struct{})
	for i := 1; i < n; i++ {
		go func() {
			for tok := range chans[i] {
				chans[(i+1)%n] <- tok + 1
			}
		}()
	}
	laps := 0
	go func() {
		defer close(finished)
		ctx := context.Background()
		last := time.Now()
		for !stop.Load() {
			ctx, task := trace.NewTask(ctx, "lap")
			r := trace.StartRegion(ctx, "pass")
			chans[1] <- 0
			<-chans[0]
			r.End()
			task.End()
			laps++
			if time.Since(last) > 50*time.Millisecond {
				last = time.Now()
				stop.Store(done())
			}
		}
		for i := 1; i < n; i++ {
			close(chans[i])
		}
	}()
	<-finished
	return laps
}

// parseSize reads "200MB", "1GB", "512kB" or a number of bytes.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("%q: want a size such as 200MB", s)
	}
	return v * mult, nil
}
