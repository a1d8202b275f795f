package collect_test

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/collect"
)

// A program writes several profiles at once; Stop writes them when main
// returns (or when SIGINT or SIGTERM arrives).
func ExampleStart() {
	dir, _ := os.MkdirTemp("", "prof")
	defer os.RemoveAll(dir)

	s := collect.Start(collect.Profiles(collect.CPU, collect.Heap, collect.Wall), collect.Dir(dir), collect.IgnoreEnv())
	// ... the program's work ...
	if err := s.Stop(); err != nil {
		fmt.Println(err)
	}
	for _, f := range s.Files() {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// cpu.pprof
	// wall.pprof
	// heap.pprof
}

// The Go blog's "Profiling Go Programs" adds -cpuprofile to a program by
// hand; with Flags it is one line, and every go test profiling flag comes
// with it. In a real program the FlagSet is flag.CommandLine:
//
//	prof := collect.Flags(flag.CommandLine)
//	flag.Parse()
//	defer prof.Start().Stop()
func ExampleFlags() {
	dir, _ := os.MkdirTemp("", "prof")
	defer os.RemoveAll(dir)

	fs := flag.NewFlagSet("havlak", flag.ExitOnError)
	prof := collect.Flags(fs)
	fs.Parse([]string{"-cpuprofile=" + filepath.Join(dir, "havlak1.prof"), "-memprofile=" + filepath.Join(dir, "mem.prof")})

	s := prof.Start(collect.IgnoreEnv())
	// ... find the loops ...
	s.Stop()
	for _, f := range s.Files() {
		fmt.Println(filepath.Base(f))
	}
	// Output:
	// havlak1.prof
	// mem.prof
}

// The debug handler mounts on a plain http.ServeMux next to the
// application's own routes, here under a prefix of its choosing.
func ExampleHandler() {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "hello") })
	mux.Handle("/admin/debug/", collect.Handler(collect.ServerOptions{Prefix: "/admin/debug"}))

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	for _, path := range []string{"/admin/debug/pprof/heap", "/admin/debug/pprof/cmdline", "/admin/debug/pprof/nosuch"} {
		resp, err := http.Get("http://" + ln.Addr().String() + path)
		if err != nil {
			fmt.Println(err)
			return
		}
		resp.Body.Close()
		fmt.Println(path, resp.Status)
	}
	// Output:
	// /admin/debug/pprof/heap 200 OK
	// /admin/debug/pprof/cmdline 403 Forbidden
	// /admin/debug/pprof/nosuch 404 Not Found
}

// A service puts the debug tree on its own loopback port, apart from the
// port it serves users on, and requires a token.
func ExampleListen() {
	s, err := collect.Listen(":0", collect.ServerOptions{Token: "let-me-in"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	host, _, _ := net.SplitHostPort(s.Addr())
	fmt.Println("listening on", host)

	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/debug/pprof/goroutine", nil)
	resp, _ := http.DefaultClient.Do(req)
	resp.Body.Close()
	fmt.Println("without token:", resp.Status)

	req.Header.Set("Authorization", "Bearer let-me-in")
	resp, _ = http.DefaultClient.Do(req)
	resp.Body.Close()
	fmt.Println("with token:", resp.Status)
	// Output:
	// listening on 127.0.0.1
	// without token: 401 Unauthorized
	// with token: 200 OK
}
