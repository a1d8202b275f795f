// Command target is the program the scrape tests scrape: it serves
// net/http/pprof on one loopback port and collect's debug server (with
// the token in $TOKEN) on another, prints "pprof ADDR" and "collect ADDR",
// and runs until its standard input closes. GET /alloc?n=N on the pprof
// port allocates N blocks of 4096 bytes in main.allocate, every one
// recorded (MemProfileRate is 1), and runs the collector so that the heap
// profile shows them.
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/perflab/perflab/collect"
)

func init() { runtime.MemProfileRate = 1 }

var (
	mu   sync.Mutex
	sink = make([][]byte, 0, 1<<20) // appending never allocates
)

//go:noinline
func allocate(n int) {
	for range n {
		b := make([]byte, 4096)
		mu.Lock()
		sink = append(sink, b)
		mu.Unlock()
	}
}

//go:noinline
func spin() {
	n := 0
	for {
		for i := range 1_000_000 {
			n += i
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func main() {
	runtime.SetMutexProfileFraction(1)
	runtime.SetBlockProfileRate(1)
	http.HandleFunc("/alloc", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		allocate(n)
		runtime.GC()
		runtime.GC()
		fmt.Fprintln(w, "ok")
	})
	go spin()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ln, nil)
	srv, err := collect.Listen("127.0.0.1:0", collect.ServerOptions{Token: os.Getenv("TOKEN")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("pprof %s\ncollect %s\n", ln.Addr(), srv.Addr())
	io.Copy(io.Discard, os.Stdin)
}
