// Command debugserver is a program with collect's debug server, for the
// repros of scripts/hostile/collect: it serves collect.Listen on a free
// loopback port, prints the address, keeps pairs of goroutines handing a
// token back and forth (the workload whose execution trace grows
// fastest) and parked goroutines (which make goroutine dumps long), and
// exits after -for or on SIGTERM. -quiet delays the pairs, as a load that
// starts while a trace is being taken.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/perflab/perflab/collect"
)

func main() {
	pairs := flag.Int("pingpong", 0, "pairs of goroutines switching back and forth")
	parked := flag.Int("parked", 0, "goroutines parked 20 calls deep")
	token := flag.String("token", "", "bearer token the server requires")
	life := flag.Duration("for", time.Minute, "how long to run")
	quiet := flag.Duration("quiet", 0, "how long to wait before starting the pairs")
	flag.Parse()
	srv, err := collect.Listen("127.0.0.1:0", collect.ServerOptions{Token: *token})
	if err != nil {
		fmt.Fprintln(os.Stderr, "debugserver:", err)
		os.Exit(1)
	}
	fmt.Println(srv.Addr())
	go pingPong(*pairs, *quiet)
	stop := make(chan struct{})
	for range *parked {
		go parkDeep(20, stop)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	select {
	case <-sig:
	case <-time.After(*life):
	}
	srv.Close()
}

// parkDeep parks a goroutine under depth frames until stop closes.
//
//go:noinline
func parkDeep(depth int, stop chan struct{}) {
	if depth > 0 {
		parkDeep(depth-1, stop)
		return
	}
	<-stop
}

// pingPong starts pairs of goroutines handing a token back and forth,
// after quiet.
func pingPong(pairs int, quiet time.Duration) {
	time.Sleep(quiet)
	for range pairs {
		a, b := make(chan int), make(chan int)
		go func() {
			for {
				a <- 1
				<-b
			}
		}()
		go func() {
			for {
				<-a
				b <- 1
			}
		}()
	}
}
