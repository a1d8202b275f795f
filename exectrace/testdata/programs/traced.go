// Command traced writes an execution trace of one of three workloads, for
// the tests that compare perflab's figures with go tool trace's:
//
//	traced -mode gc -o trace.out      goroutines allocating, GC-bound
//	traced -mode server -o trace.out  an HTTP server under load, traced
//	                                  through /debug/pprof/trace
//	traced -mode pool -o trace.out    a worker pool contending for a mutex
//	traced -mode serial -o trace.out  one goroutine at work, the others waiting
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/trace"
	"strings"
	"sync"
	"time"
)

func main() {
	mode := flag.String("mode", "gc", "gc, server or pool")
	out := flag.String("o", "trace.out", "write the trace to `file`")
	flag.Parse()
	var err error
	switch *mode {
	case "gc":
		err = traced(*out, allocate)
	case "server":
		err = serve(*out)
	case "pool":
		err = traced(*out, pool)
	case "serial":
		err = traced(*out, serial)
	default:
		err = fmt.Errorf("unknown mode %q", *mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "traced:", err)
		os.Exit(1)
	}
}

// traced runs work with the tracer writing to out.
func traced(out string, work func()) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := trace.Start(f); err != nil {
		return err
	}
	work()
	trace.Stop()
	return f.Close()
}

var sink [][]byte

// allocate keeps four goroutines allocating, an eighth of it kept a while.
func allocate() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keep := make([][]byte, 0, 4096)
			for i := range 50000 {
				b := make([]byte, 64+i%2048)
				if i%8 == 0 {
					keep = append(keep, b)
					if len(keep) == cap(keep) {
						keep = keep[:0]
					}
				}
			}
			mu.Lock()
			sink = append(sink, keep...)
			mu.Unlock()
		}()
	}
	wg.Wait()
}

// pool has eight workers square jobs and add them up under one mutex.
func pool() {
	var mu sync.Mutex
	total := 0
	jobs := make(chan []int, 64)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				s := 0
				for _, v := range j {
					s += v * v
				}
				mu.Lock()
				for k := range 2000 {
					total += s % (k + 1)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range 20000 {
		j := make([]int, 512)
		for k := range j {
			j[k] = i + k
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
}

// serial hands work from goroutine to goroutine: one runs at a time.
func serial() {
	token := make(chan int)
	done := make(chan int)
	for range 4 {
		go func() {
			for n := range token {
				x := n
				for i := range 8000000 {
					x = x*31 + i
				}
				if n == 10 {
					done <- x
					continue
				}
				token <- n + 1
			}
		}()
	}
	token <- 0
	<-done
	close(token)
}

// serve starts an HTTP server with a JSON handler and net/http/pprof, puts
// eight clients on it, and once it is under load fetches a trace of 0.6 s
// from its /debug/pprof/trace into out.
func serve(out string) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		m := map[string]any{}
		for i := range 200 {
			m[strings.Repeat("k", i%17)+string(rune('a'+i%26))] = []int{i, i * 2, i * 3}
		}
		json.NewEncoder(w).Encode(m)
	})
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if resp, err := http.Get(base + "/"); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}()
	}
	defer wg.Wait()
	defer close(stop)
	time.Sleep(200 * time.Millisecond)
	resp, err := http.Get(base + "/debug/pprof/trace?seconds=0.6")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, resp.Body); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
