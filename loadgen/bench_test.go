package loadgen

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/testprog"
)

// startHello runs the hello-world server of scripts/bench-load
// (testdata/hello) as its own process, so that its CPU time is not
// counted as the generator's.
func startHello(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(testprog.BuildPackage(b, "github.com/perflab/perflab/loadgen/testdata/hello"))
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

// BenchmarkClient sends b.N requests over 8 connections to a hello-world
// server in another process, with the lean client and with net/http, and
// reports the generator's CPU time per request (cpu-ns/req) beside the
// wall time.
func BenchmarkClient(b *testing.B) {
	url := startHello(b)
	for _, bc := range []struct {
		name    string
		netHTTP bool
	}{{"http1", false}, {"nethttp", true}} {
		b.Run(bc.name, func(b *testing.B) {
			cfg := Config{URL: url, N: max(b.N, 8), C: 8, netHTTP: bc.netHTTP}
			cpu0 := cputime.Self()
			b.ResetTimer()
			res, err := Run(context.Background(), cfg)
			b.StopTimer()
			if err != nil || res.ErrorCount > 0 {
				b.Fatalf("%v %v", err, res.Errors)
			}
			if cpu := cputime.Self() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu)/float64(res.Requests), "cpu-ns/req")
			}
			b.ReportMetric(res.RPS(), "req/s")
		})
	}
}
