// Command silent is a server that accepts TCP connections on 127.0.0.1
// and never answers: it prints its address, reads and discards what
// clients send, and exits by itself after -for (default 1m). With
// -closed it prints instead the address of a loopback port it listened on
// and closed, where connections are refused, and exits.
// scripts/hostile/loadgen loads it to check that perflab load ends on time
// and reports the requests it left in flight.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

func main() {
	life := flag.Duration("for", time.Minute, "exit after this long")
	closed := flag.Bool("closed", false, "print a closed port's address and exit")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "silent:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	if *closed {
		ln.Close()
		return
	}
	time.AfterFunc(*life, func() { os.Exit(0) })
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "silent:", err)
			os.Exit(1)
		}
		go io.Copy(io.Discard, c) // holds c open, unanswered
	}
}
