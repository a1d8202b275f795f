package profiles_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"

	"github.com/perflab/perflab/profiles"
)

// A goroutine profile in Go's legacy text format (debug=1), as
// /debug/pprof/goroutine?debug=1 serves it, cut to two stacks.
const goroutines = `goroutine profile: total 5
4 @ 0x43cb56 0x44e2d2 0x4a3f15 0x46b361
#	0x4a3f14	main.worker+0x34	/src/app/main.go:21

1 @ 0x43cb56 0x40a6e5 0x4a3e85 0x46b361
#	0x4a3e84	main.main+0x64	/src/app/main.go:12
`

func ExampleParseData() {
	p, err := profiles.ParseData("goroutine.txt", []byte(goroutines), profiles.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range p.Sample {
		fmt.Printf("%d goroutines, %d frames, leaf at %#x\n", s.Value[0], len(s.Location), s.Location[0].Address)
	}
	// Output:
	// 4 goroutines, 4 frames, leaf at 0x43cb55
	// 1 goroutines, 4 frames, leaf at 0x43cb55
}

func ExampleParseData_error() {
	_, err := profiles.ParseData("notes.txt", []byte("TODO: profile the server\n"), profiles.Options{})
	fmt.Println(err)
	// Output:
	// notes.txt: not a profile: unrecognized text format starting "TODO: profile the server"
}

// Load fetches from a live /debug/pprof/ endpoint as readily as it reads
// files.
func ExampleLoad() {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	p, err := profiles.Load(context.Background(), []string{srv.URL + "/debug/pprof/heap"}, profiles.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, st := range p.SampleType {
		fmt.Println(st.Type, st.Unit)
	}
	// Output:
	// alloc_objects count
	// alloc_space bytes
	// inuse_objects count
	// inuse_space bytes
}

// ApplyBase subtracts an earlier goroutine profile from a later one: what
// is left is the change.
func ExampleApplyBase() {
	before, err := profiles.ParseData("before.txt", []byte("goroutine profile: total 3\n3 @ 0x1000 0x2000\n"), profiles.Options{})
	if err != nil {
		log.Fatal(err)
	}
	after, err := profiles.ParseData("after.txt", []byte("goroutine profile: total 8\n8 @ 0x1000 0x2000\n"), profiles.Options{})
	if err != nil {
		log.Fatal(err)
	}
	diff, err := profiles.ApplyBase(after, before, false)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("new goroutines:", diff.Sample[0].Value[0])
	// Output:
	// new goroutines: 5
}
