// Command hostile makes the hostile inputs that scripts/hostile/profiles
// feeds to perflab: gzip bombs, an endless HTTP body, a profile with one
// very deep stack, and a profile whose source file is a device.
//
//	hostile bomb SIZE >bomb.gz     gzip of SIZE zero bytes (K, M, G suffixes)
//	hostile serve                  serve an endless body on 127.0.0.1; prints the URL
//	hostile deep N >deep.pb.gz     a profile with one sample of an N-frame stack
//	hostile source FILE >x.pb.gz   a profile whose only function is in FILE
package main

import (
	"compress/gzip"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "hostile:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("usage: hostile bomb SIZE | serve | deep N | source FILE")
	}
	switch {
	case args[0] == "bomb" && len(args) == 2:
		n, err := parseSize(args[1])
		if err != nil {
			return err
		}
		return bomb(n)
	case args[0] == "serve":
		return serve()
	case args[0] == "deep" && len(args) == 2:
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		return deep(n).Write(os.Stdout)
	case args[0] == "source" && len(args) == 2:
		return source(args[1]).Write(os.Stdout)
	}
	return fmt.Errorf("bad arguments %q", args)
}

func parseSize(s string) (int64, error) {
	factor := int64(1)
	for suffix, f := range map[string]int64{"K": 1 << 10, "M": 1 << 20, "G": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, factor = strings.TrimSuffix(s, suffix), f
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * factor, err
}

// bomb writes one gzip member inflating to n zero bytes; its trailer
// tells the truth (modulo 4 GiB), as a real bomb's does.
func bomb(n int64) error {
	zw, _ := gzip.NewWriterLevel(os.Stdout, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, int64(len(zeros)))
		if _, err := zw.Write(zeros[:k]); err != nil {
			return err
		}
		n -= k
	}
	return zw.Close()
}

// serve answers every request with an endless body of zeros, and no
// Content-Length, until the client goes away.
func serve() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/debug/pprof/heap\n", ln.Addr())
	os.Stdout.Close() // the script reads the URL, then waits for nothing more
	zeros := make([]byte, 64<<10)
	return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}))
}

// deep returns a CPU profile with one sample whose stack is n frames of
// distinct functions.
func deep(n int) *profile.Profile {
	p := base()
	s := &profile.Sample{Value: []int64{1, 10_000_000}}
	for i := range n {
		fn := &profile.Function{ID: uint64(i + 1), Name: fmt.Sprintf("main.f%d", i), SystemName: fmt.Sprintf("main.f%d", i), Filename: "/src/deep.go"}
		loc := &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 + i), Mapping: p.Mapping[0], Line: []profile.Line{{Function: fn, Line: int64(i + 1)}}}
		p.Function = append(p.Function, fn)
		p.Location = append(p.Location, loc)
		s.Location = append(s.Location, loc)
	}
	p.Sample = []*profile.Sample{s}
	return p
}

// source returns a CPU profile whose one function is in file.
func source(file string) *profile.Profile {
	p := base()
	fn := &profile.Function{ID: 1, Name: "main.main", SystemName: "main.main", Filename: file, StartLine: 1}
	loc := &profile.Location{ID: 1, Address: 0x1000, Mapping: p.Mapping[0], Line: []profile.Line{{Function: fn, Line: 3}}}
	p.Function = []*profile.Function{fn}
	p.Location = []*profile.Location{loc}
	p.Sample = []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1, 10_000_000}}}
	return p
}

func base() *profile.Profile {
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     10_000_000,
		Mapping:    []*profile.Mapping{{ID: 1, Start: 0x1000, Limit: 0x1000_0000, File: "/bin/hostile", HasFunctions: true}},
	}
}
