package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/loadgen/internal/http1"
)

// startServer runs a server of testdata (hello, the hello-world server of
// scripts/bench-load, or busy, its CPU-bound JSON API) as its own process,
// so that its CPU time is not counted as the generator's, and returns its
// base URL.
func startServer(b *testing.B, name string, args ...string) string {
	b.Helper()
	cmd := exec.Command(testprog.BuildPackage(b, "github.com/perflab/perflab/loadgen/testdata/"+name), args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return "http://" + strings.TrimSpace(addr) + "/"
}

// BenchmarkClient sends b.N requests to a server in another process and
// reports, beside the wall time, the generator's CPU time per request
// (cpu-ns/req, on Unix) and its heap allocations per request (allocs/req):
// with the lean client and with net/http against the hello-world server
// over 8 connections (the case of scripts/bench-load), and with the lean
// client against the CPU-bound server over 50 connections, where every
// response wakes the generator from sleep (scripts/bench-load's second case,
// with a lighter handler so that the benchmark stays short).
func BenchmarkClient(b *testing.B) {
	hello := startServer(b, "hello")
	busy := startServer(b, "busy", "-rounds", "2000")
	for _, bc := range []struct {
		name    string
		cfg     Config
		netHTTP bool
	}{
		{"http1", Config{URL: hello, C: 8}, false},
		{"nethttp", Config{URL: hello, C: 8}, true},
		{"http1-busy", Config{URL: busy + "cpu", C: 50, Method: "POST", Body: []byte(`{"a":1}`)}, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := bc.cfg
			cfg.N, cfg.netHTTP = max(b.N, cfg.C), bc.netHTTP
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			cpu0 := cputime.Self()
			b.ResetTimer()
			res, err := Run(context.Background(), cfg)
			b.StopTimer()
			cpu := cputime.Self() - cpu0
			runtime.ReadMemStats(&m1)
			if err != nil || res.ErrorCount > 0 || res.Responses != int64(cfg.N) {
				b.Fatalf("%v: %d responses of %d, errors %v", err, res.Responses, cfg.N, res.Errors)
			}
			if cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(res.Requests), "cpu-ns/req")
			}
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(res.Requests), "allocs/req")
			b.ReportMetric(res.RPS(), "req/s")
		})
	}
}

// BenchmarkResponse measures the generator's own work per response, with
// no network and no scheduler: reading the framing of a response that a
// net/http server sent (status line, headers, a 14-byte body) and
// recording it into a shard's statistics, HDR histogram included. The
// rest of a request's CPU (cpu-ns/req in BenchmarkClient) is the kernel's
// write and read, the network poller and the scheduler.
func BenchmarkResponse(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("Hello, World!\n"))
	}))
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		b.Fatal(err)
	}
	wire, err := httputil.DumpResponse(resp, true)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	rd := bytes.NewReader(wire)
	br := bufio.NewReaderSize(rd, 16<<10)
	sh := newShard(false)
	var h http1.Head
	s := Sample{Latency: 90 * time.Microsecond, Uncorrected: 90 * time.Microsecond}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		rd.Reset(wire)
		br.Reset(rd)
		if err := http1.ReadHead(br, &h); err != nil {
			b.Fatal(err)
		}
		n, err := http1.DiscardBody(br, &h, false)
		if err != nil || n != 14 {
			b.Fatalf("body of %d bytes, %v", n, err)
		}
		s.Status, s.Bytes, s.Latency = h.Status, n, time.Duration(80_000+i%20_000)
		sh.recordResponse(&s, 0, false)
	}
}
