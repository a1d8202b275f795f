package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/loadgen"
)

var loadCmd = &command{
	name:     "load",
	summary:  "put HTTP load on a server (hey's flags, honest latencies)",
	synopsis: `perflab load [flags] URL`,
	doc: `
Sends HTTP requests to URL from -c concurrent workers and reports latencies
in hey's layout. Flags and meanings are hey's, except that -q is the total
rate (hey's is per worker), -n is sent exactly, and there is no cap on the
number of results. With -q, latencies count from each request's intended
send time (coordinated omission corrected, as wrk2 does); the uncorrected
view and how many requests went out late are printed beside them.

Requests/sec counts responses of any status; requests that failed without
a response are counted apart (Errors/sec, Error distribution). A run in
which no request got a response exits 1.

On a terminal a progress line shows elapsed time, requests, rate, errors and
p50/p99 so far. Ctrl-C stops the run and reports what completed.
`,
	examples: `
perflab load -n 10000 -c 8 http://127.0.0.1:8080/
perflab load -c 4 -q 1000 -z 30s http://127.0.0.1:8080/api
perflab load -m POST -T application/json -d '{"a":1}' -o json http://127.0.0.1:8080/
`,
	run: runLoad,
}

// loadFlags are perflab load's flags, as hey spells them.
type loadFlags struct {
	n, c, t, cpus                       int
	q                                   float64
	z                                   time.Duration
	method, accept, body, bodyFile      string
	contentType, auth, proxy, host, out string
	h2, noCompression, noKeepAlive      bool
	noRedirects                         bool
	headers                             stringList           // repeated -H
	failOn                              loadgen.FailureLimit // -fail-on-errors
}

func runLoad(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("load")
	var f loadFlags
	fs.StringVar(&f.out, "o", "", "output: summary (default), csv (one row per response, hey's columns) or json (docs/load.md describes the schema)")
	f.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("want exactly one URL, got %d arguments", fs.NArg())
	}
	cfg, err := f.config(fs.Arg(0))
	if err != nil {
		return err
	}
	f.rateNote(stderr, "load")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(f.cpus))
	res, err := loadAndReport(ctx, stdout, stderr, cfg, f.out)
	if err != nil {
		return err
	}
	return f.verdict(res)
}

// register defines the load flags, all but -o (whose meaning differs
// between perflab load and perflab investigate), on fs.
func (f *loadFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&f.n, "n", loadgen.DefaultN, "number of requests to send (default 200)")
	fs.IntVar(&f.c, "c", loadgen.DefaultC, "concurrent workers, one connection each (default 50)")
	fs.Float64Var(&f.q, "q", 0, "requests per second of all the workers together (hey's -q is per worker; with -c > 1 a note on stderr says so); default: as fast as possible")
	fs.DurationVar(&f.z, "z", 0, "send for this long instead of -n requests, e.g. 10s, 3m")
	fs.StringVar(&f.method, "m", "GET", "HTTP method (default GET)")
	fs.Var(&f.headers, "H", "header; repeat for more")
	fs.IntVar(&f.t, "t", 20, "timeout of each request in seconds, 0 for none (default 20)")
	fs.StringVar(&f.accept, "A", "", "Accept header")
	fs.StringVar(&f.body, "d", "", "request body")
	fs.StringVar(&f.bodyFile, "D", "", "request body from `FILE`, a regular file of at most 256 MiB")
	fs.StringVar(&f.contentType, "T", "text/html", "Content-Type (default \"text/html\")")
	fs.StringVar(&f.auth, "a", "", "basic authentication")
	fs.StringVar(&f.proxy, "x", "", "HTTP proxy as host:port or URL")
	fs.BoolVar(&f.h2, "h2", false, "HTTP/2 only (h2 over TLS, prior-knowledge h2c over plain TCP)")
	fs.StringVar(&f.host, "host", "", "Host header")
	fs.BoolVar(&f.noCompression, "disable-compression", false, "do not ask for gzip")
	fs.BoolVar(&f.noKeepAlive, "disable-keepalive", false, "a new connection for every request")
	fs.BoolVar(&f.noRedirects, "disable-redirects", false, "report redirects instead of following them")
	fs.IntVar(&f.cpus, "cpus", defaultCPUs(), "CPUs the generator may use (default: half the machine's, at least 1; hey's default is all of them)")
	fs.Var(&f.failOn, "fail-on-errors", "exit 1 when more than `SHARE` of the requests failed, e.g. 0.01 or 1%: counts requests without a response, 5xx responses, requests left in flight at the end and, with -q, requests due that were never sent")
}

// rateNote warns a hey user, when -q and -c > 1 are both given, that -q
// is the total rate of all the workers, where hey's is each worker's, and
// gives hey's -q for the same load.
func (f *loadFlags) rateNote(stderr io.Writer, cmd string) {
	if f.q <= 0 || f.c <= 1 {
		return
	}
	fmt.Fprintf(stderr, "perflab %s: -q %s is the total rate of the %d workers together, not each one's as in hey (the same load in hey: -c %d -q %s)\n",
		cmd, strconv.FormatFloat(f.q, 'g', -1, 64), f.c, f.c, strconv.FormatFloat(f.q/float64(f.c), 'g', 4, 64))
}

// verdict fails a run in which no request got a response, or, with
// -fail-on-errors, one with too large a share of failures.
func (f *loadFlags) verdict(res *loadgen.Result) error {
	if err := res.Err(); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	if err := f.failOn.Check(res); err != nil {
		return fmt.Errorf("load: %w", err)
	}
	return nil
}

// defaultCPUs is half the machine's CPUs, at least 1. A load generator
// usually shares the machine with the server it loads, and Go's scheduler
// spends less CPU per request on fewer cores: on 2 cores against a local
// server, -cpus 1 sent 26k req/s at 17 µs of CPU each where -cpus 2 sent
// 13-21k at 22-29 µs (scripts/bench-load's setup).
func defaultCPUs() int { return max(1, runtime.NumCPU()/2) }

// config checks the flags and turns them into a loadgen.Config. Every error
// is a usage error naming the flag, except a -D file that cannot be read.
func (f *loadFlags) config(rawURL string) (loadgen.Config, error) {
	cfg := loadgen.Config{
		Method: strings.ToUpper(f.method), URL: rawURL, Header: http.Header{},
		C: f.c, Rate: f.q, Duration: f.z, Timeout: time.Duration(f.t) * time.Second,
		Host: f.host, HTTP2: f.h2, DisableCompression: f.noCompression,
		DisableKeepAlive: f.noKeepAlive, DisableRedirects: f.noRedirects,
	}
	if _, err := loadgen.ParseURL(rawURL); err != nil {
		return cfg, usageErrorf("%w", err)
	}
	if err := f.checkNumbers(); err != nil {
		return cfg, err
	}
	if f.z == 0 {
		cfg.N = f.n
	}
	if err := f.checkStrings(); err != nil {
		return cfg, err
	}
	cfg.Header.Set("Content-Type", f.contentType)
	for _, h := range f.headers {
		name, value, err := loadgen.ParseHeader(h)
		if err != nil {
			return cfg, usageErrorf("-H: %w", err)
		}
		cfg.Header.Set(name, value)
	}
	if f.accept != "" {
		cfg.Header.Set("Accept", f.accept)
	}
	if f.auth != "" {
		cfg.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(f.auth)))
	}
	if f.proxy != "" {
		p, err := parseProxy(f.proxy)
		if err != nil {
			return cfg, usageErrorf("-x: %w", err)
		}
		cfg.Proxy = p
	}
	return cfg, f.readBody(&cfg)
}

func (f *loadFlags) checkNumbers() error {
	switch {
	case f.c < 1:
		return usageErrorf("-c must be at least 1, not %d", f.c)
	case f.z < 0:
		return usageErrorf("-z must not be negative, not %v", f.z)
	case f.z == 0 && f.n < 1:
		return usageErrorf("-n must be at least 1, not %d", f.n)
	case f.z == 0 && f.n < f.c:
		return usageErrorf("-n (%d) cannot be less than -c (%d)", f.n, f.c)
	case f.q < 0:
		return usageErrorf("-q must not be negative, not %v", f.q)
	case f.t < 0:
		return usageErrorf("-t must not be negative, not %d", f.t)
	case f.cpus < 1:
		return usageErrorf("-cpus must be at least 1, not %d", f.cpus)
	}
	return nil
}

func (f *loadFlags) checkStrings() error {
	switch {
	case f.out != "" && f.out != "csv" && f.out != "json" && f.out != "summary":
		return usageErrorf("-o must be csv or json, not %q", f.out)
	case f.body != "" && f.bodyFile != "":
		return usageErrorf("-d and -D conflict: give the body one way")
	case f.auth != "" && !strings.Contains(f.auth, ":"):
		return usageErrorf("-a: want username:password")
	case strings.ContainsAny(f.host, " \t\r\n/"):
		return usageErrorf("-host: bad host %q", f.host)
	case strings.ContainsAny(f.contentType, "\r\n"):
		return usageErrorf("-T: bad content type %q", f.contentType)
	case strings.ContainsAny(f.accept, "\r\n"):
		return usageErrorf("-A: bad value %q", f.accept)
	}
	if !loadgen.ValidMethod(f.method) {
		return usageErrorf("-m: bad method %q", f.method)
	}
	return nil
}

func (f *loadFlags) readBody(cfg *loadgen.Config) error {
	if f.body != "" {
		cfg.Body = []byte(f.body)
	}
	if f.bodyFile != "" {
		b, err := loadgen.ReadBodyFile(f.bodyFile)
		if err != nil {
			return fmt.Errorf("load: -D: %w", err)
		}
		cfg.Body = b
	}
	return nil
}

// parseProxy takes hey's host:port or a full http(s) URL.
func parseProxy(s string) (*url.URL, error) {
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	return loadgen.ParseURL(s)
}

// loadAndReport runs the load with a progress line on a terminal and
// writes the report in the chosen format.
func loadAndReport(ctx context.Context, stdout, stderr io.Writer, cfg loadgen.Config, format string) (*loadgen.Result, error) {
	line := term.NewLine(stderr)
	if line.Enabled() {
		cfg.OnProgress = func(p loadgen.Progress) {
			ok := p.Sent - p.Errors
			line.Printf("%v elapsed, %d responses, %.0f req/s, %d errors, p50 %v, p99 %v",
				p.Elapsed.Round(100*time.Millisecond), ok, float64(ok)/p.Elapsed.Seconds(),
				p.Errors, p.P50.Round(time.Microsecond), p.P99.Round(time.Microsecond))
		}
	}
	var csv *csvWriter
	if format == "csv" {
		csv = newCSVWriter(stdout)
		cfg.OnSample = csv.add
	}
	res, err := loadgen.Run(ctx, cfg)
	line.Clear()
	if err != nil {
		return nil, usageErrorf("%w", err)
	}
	if res.Interrupted {
		fmt.Fprintf(stderr, "perflab load: interrupted; reporting the %d requests that completed\n", res.Requests)
	}
	switch format {
	case "csv":
		err = csv.flush()
	case "json":
		err = res.WriteJSON(stdout)
	default:
		err = res.WriteText(stdout)
	}
	return res, err
}

// csvWriter streams one row per response, so that memory stays bounded
// however many requests a run sends. It needs no lock: loadgen.Run makes
// its OnSample calls one at a time.
type csvWriter struct {
	w   *bufio.Writer
	buf []byte
	err error
}

func newCSVWriter(w io.Writer) *csvWriter {
	c := &csvWriter{w: bufio.NewWriterSize(w, 64<<10)}
	_, c.err = c.w.WriteString(loadgen.CSVHeader)
	return c
}

func (c *csvWriter) add(s loadgen.Sample) {
	c.buf = loadgen.AppendCSVRow(c.buf[:0], &s)
	if c.err == nil {
		_, c.err = c.w.Write(c.buf)
	}
}

func (c *csvWriter) flush() error {
	if c.err != nil {
		return c.err
	}
	return c.w.Flush()
}
