// Command busy is a JSON API whose handlers keep the CPU busy, for
// scripts/bench-load and the load package's tests and benchmarks to load
// on the machine they run on. It listens on 127.0.0.1, prints its address
// and serves until killed (or until -for passes):
//
//   - POST /cpu reads the request body and hashes it -rounds times with
//     SHA-256 (about 1.7 ms of CPU with the default on the 2-core test VM),
//     then answers {"sum": "..."}: CPU-bound, almost no allocation;
//   - POST /alloc reads the body and builds and encodes a JSON list of
//     -items small maps holding it: allocation-heavy, so the garbage
//     collector runs often.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 20000, "SHA-256 rounds per /cpu request")
	items := flag.Int("items", 2000, "list items per /alloc request")
	life := flag.Duration("for", 0, "exit after this long (0: serve until killed)")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "busy:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	if *life > 0 {
		time.AfterFunc(*life, func() { os.Exit(0) })
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /cpu", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sum := sha256.Sum256(body)
		for range *rounds {
			sum = sha256.Sum256(sum[:])
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"sum": hex.EncodeToString(sum[:8])})
	})
	mux.HandleFunc("POST /alloc", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var list []map[string]string
		for i := range *items {
			list = append(list, map[string]string{"i": strconv.Itoa(i), "body": string(body)})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]int{"items": len(list), "bytes": len(mustJSON(list))})
	})
	fmt.Fprintln(os.Stderr, "busy:", http.Serve(ln, mux))
	os.Exit(1)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
