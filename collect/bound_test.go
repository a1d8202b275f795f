package collect_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	rtrace "runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
	"golang.org/x/exp/trace"
)

// pingPong runs pairs of goroutines that hand a token back and forth, the
// workload whose execution trace grows fastest, until the returned
// function (also called at the test's end) stops them.
func pingPong(t *testing.T, pairs int) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for range pairs {
		a, b := make(chan int), make(chan int)
		wg.Go(func() {
			for {
				select {
				case a <- 1:
				case <-done:
					return
				}
				select {
				case <-b:
				case <-done:
					return
				}
			}
		})
		wg.Go(func() {
			for {
				select {
				case <-a:
				case <-done:
					return
				}
				select {
				case b <- 1:
				case <-done:
					return
				}
			}
		})
	}
	stop = func() { once.Do(func() { close(done) }); wg.Wait() }
	t.Cleanup(stop)
	return stop
}

// TestTraceStreams fetches a trace of a program busy switching goroutines
// and checks that the server streamed it: the heap grew by a small part
// of the trace's size, and the trace received is whole.
//
// The first generation is held on the heap until it ends, and on a
// loaded machine the goroutine that stops the trace after its seconds can
// wait for a P past lateStop; the trace's reader then ends the answer at
// the end of the generation being sent, keeping the rest of that
// generation on the heap (up to 17 MB of a 30 MB trace measured with two
// busy loops beside the test). Those, which the server reports, are the
// design; what the heap holds beyond them is what this test bounds.
func TestTraceStreams(t *testing.T) {
	stopWork := pingPong(t, 32)
	var kept atomic.Int64
	collect.OnTraceDone(func(held, rest int64) { kept.Store(held + rest) })
	defer collect.OnTraceDone(nil)
	start := time.Now()
	// A backlog bound well above the trace's size: on a loaded machine
	// this test's own reader may wait for a CPU, and the answer is to be
	// whole.
	base := serve(t, collect.ServerOptions{MaxTraceBacklog: 1 << 30}) + "/debug/pprof/"
	file := filepath.Join(t.TempDir(), "trace.out")
	out, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()

	runtime.GC()
	var before [1]metrics.Sample
	before[0].Name = "/memory/classes/heap/objects:bytes"
	metrics.Read(before[:])
	stop := testprog.HeapPeak()
	// Three seconds, three generations or so: the first is held until it
	// ends (see TestTraceFirstGenerationRefused), the rest streams.
	resp, err := http.Get(base + "trace?seconds=3")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(out, resp.Body)
	resp.Body.Close()
	peak := stop()
	stopWork()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("trace: %s after %d bytes, %v", resp.Status, n, err)
	}
	growth := int64(peak) - int64(before[0].Value.Uint64())
	t.Logf("trace of %d bytes in %v; heap grew by %d bytes at most, of which %d were the first generation, held until it ended, and the rest of a generation kept after a late stop", n, time.Since(start), growth, kept.Load())
	if n < 12<<20 {
		t.Skipf("the machine made only %d bytes of trace, too little to tell streaming from buffering", n)
	}
	if held := growth - kept.Load(); held > n/4 {
		t.Errorf("serving a trace of %d bytes grew the heap by %d bytes beyond the %d kept: it was buffered, not streamed", n, held, kept.Load())
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if events := readTraceFrom(t, "trace", bufio.NewReader(out)); events == 0 {
		t.Errorf("streamed trace holds no events")
	}
}

// TestIdleConnectionsEvicted opens 300 connections that never finish a
// request, as a client holding file descriptors would, while an
// authorised CPU profile runs: the server keeps at most MaxConns of them
// open, closing the oldest idle ones, the profile in progress is not cut,
// and a new authorised request is served at once.
func TestIdleConnectionsEvicted(t *testing.T) {
	const token, attackers = "t0ken", 300
	srv, err := collect.Listen("127.0.0.1:0", collect.ServerOptions{Token: token})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := "http://" + srv.Addr() + "/debug/pprof/"
	profile := make(chan response, 1)
	go func() { profile <- get(t, base+"profile?seconds=1", token) }()
	time.Sleep(100 * time.Millisecond) // let the profile start

	conns := make([]net.Conn, attackers)
	for i := range conns {
		c, err := net.Dial("tcp", srv.Addr())
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		if i%2 == 1 { // half start a request and never finish its headers
			fmt.Fprintf(c, "GET /debug/pprof/heap HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		}
		conns[i] = c
	}
	start := time.Now()
	if r := get(t, base+"heap", token); r.status != http.StatusOK {
		t.Fatalf("authorised request after %d idle connections: %d %s", attackers, r.status, r.body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("authorised request took %v behind idle connections", d)
	}
	if r := <-profile; r.status != http.StatusOK {
		t.Errorf("profile in progress: %d %s", r.status, r.body)
	} else {
		parse(t, "profile", r.body)
	}
	if open := testprog.StillOpen(conns, time.Second); open > collect.DefaultMaxConns {
		t.Errorf("%d of %d idle connections still open, want at most %d", open, attackers, collect.DefaultMaxConns)
	}
}

// TestRefusedConnectionClosed sends an unauthenticated request whose body
// never comes: the server answers 401 and closes the connection at once
// instead of waiting for the body.
func TestRefusedConnectionClosed(t *testing.T) {
	srv, err := collect.Listen("127.0.0.1:0", collect.ServerOptions{Token: "t0ken"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /debug/pprof/symbol HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n0x1+")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Errorf("unauthenticated request: %s, Connection: %q; want 401 and close", resp.Status, resp.Header.Get("Connection"))
	}
	io.Copy(io.Discard, resp.Body)
	if n := testprog.StillOpen([]net.Conn{c}, 2*time.Second); n != 0 {
		t.Errorf("the server kept the refused connection open, waiting for the body")
	}
}

// parkDeep parks a goroutine under depth frames until stop closes, so
// that a goroutine dump is long.
//
//go:noinline
func parkDeep(depth int, stop chan struct{}) {
	if depth > 0 {
		parkDeep(depth-1, stop)
		return
	}
	<-stop
}

// TestExpensiveOneAtATime holds a goroutine dump in progress with a
// client that does not read it: another dump gets 429 with Retry-After,
// while other kinds are served; once the reader leaves, dumps are served
// again. Profiles over seconds are limited the same way, to MaxConcurrent.
func TestExpensiveOneAtATime(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	for range 5000 {
		go parkDeep(20, stop)
	}
	srv, err := collect.Listen("127.0.0.1:0", collect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := "http://" + srv.Addr() + "/debug/pprof/"

	stalled, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	stalled.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(stalled, "GET /debug/pprof/goroutine?debug=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

	r := waitStatus(t, base+"goroutine?debug=1", http.StatusTooManyRequests)
	checkErrorBody(t, r, "too many goroutine profiles")
	if r.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	getOK(t, base+"heap") // another kind is not held up
	stalled.Close()
	waitStatus(t, base+"goroutine?debug=1", http.StatusOK)
}

// TestDeltaMaxConcurrent sends MaxConcurrent+1 profiles over seconds at
// once: MaxConcurrent are served and one gets 429.
func TestDeltaMaxConcurrent(t *testing.T) {
	const limit = 2
	base := serve(t, collect.ServerOptions{MaxConcurrent: limit}) + "/debug/pprof/"
	results := make(chan response, limit+1)
	for range limit + 1 {
		go func() { results <- get(t, base+"allocs?seconds=3", "") }()
	}
	count := map[int]int{}
	for range limit + 1 {
		r := <-results
		count[r.status]++
		if r.status == http.StatusTooManyRequests {
			checkErrorBody(t, r, "too many allocs profiles over seconds")
		}
	}
	if count[http.StatusOK] != limit || count[http.StatusTooManyRequests] != 1 {
		t.Errorf("%d concurrent profiles with MaxConcurrent %d: statuses %v", limit+1, limit, count)
	}
	getOK(t, base+"allocs?seconds=0.1")
}

// waitStatus repeats a request until it answers status, for at most 10 s.
func waitStatus(t *testing.T, url string, status int) response {
	t.Helper()
	var r response
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if r = get(t, url, ""); r.status == status {
			return r
		}
	}
	t.Fatalf("GET %s: %d %s, want %d", url, r.status, clipBytes(r.body), status)
	return r
}

// TestCrossSiteRefused sends the requests a web page could make a browser
// send to a token-less loopback server: they get 403 and start nothing,
// while the browser's own navigation and same-origin requests pass.
func TestCrossSiteRefused(t *testing.T) {
	addr := serve(t, collect.ServerOptions{})
	url := addr + "/debug/pprof/profile?seconds=30"
	origin := addr // the server's own origin: http://127.0.0.1:PORT
	for _, tc := range []struct{ site, origin string }{
		{"cross-site", ""},
		{"same-site", ""},
		{"cross-site", origin},
		{"", "http://attacker.example"},
		{"", "null"},
	} {
		req, _ := http.NewRequest("GET", url, nil)
		if tc.site != "" {
			req.Header.Set("Sec-Fetch-Site", tc.site)
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Sec-Fetch-Site %q, Origin %q: %s, want 403", tc.site, tc.origin, resp.Status)
			continue
		}
		checkErrorBody(t, response{resp.StatusCode, body, resp.Header}, "cross-site request refused")
	}
	for _, tc := range []struct{ site, origin string }{{"none", ""}, {"same-origin", origin}, {"", origin}} {
		req, _ := http.NewRequest("GET", addr+"/debug/pprof/profile?seconds=0.1", nil)
		if tc.site != "" {
			req.Header.Set("Sec-Fetch-Site", tc.site)
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK { // a refused 30 s profile would leave 429 here
			t.Errorf("Sec-Fetch-Site %q, Origin %q: %s, want 200", tc.site, tc.origin, resp.Status)
		}
	}
}

// slowReader reads at most chunk bytes per pause, as a client on a slow
// link does.
type slowReader struct {
	r     io.Reader
	chunk int
	pause time.Duration
}

func (s slowReader) Read(p []byte) (int, error) {
	time.Sleep(s.pause)
	return s.r.Read(p[:min(len(p), s.chunk)])
}

// generationsChild marks a test binary run by inGenerationsOf.
const generationsChild = "PERFLAB_TEST_GENERATIONS_CHILD"

// inGenerationsOf reports whether the test runs in a test binary whose
// traces' generations last d. The runtime reads the period only at start,
// so when they do not, it runs the test again in one that was started so
// (GODEBUG=traceadvanceperiod), logs its output, fails if it failed, and
// reports false.
func inGenerationsOf(t *testing.T, d time.Duration) bool {
	t.Helper()
	if os.Getenv(generationsChild) != "" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), generationsChild+"=1", fmt.Sprintf("GODEBUG=traceadvanceperiod=%d", d.Nanoseconds()))
	out, err := cmd.CombinedOutput()
	t.Logf("the test in a binary with generations of %v:\n%s", d, out)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("the test did not run in the child binary")
	}
	return false
}

// TestTraceBacklogBounded reads a 3 s trace more slowly than the runtime
// writes it: the unsent trace held in the program (in the runtime's trace
// buffers, and the rest of a generation kept on the heap) stays within a
// few times MaxTraceBacklog, and past it the answer ends early, cleanly,
// at a generation's end, and reads to its end without error (it used to
// be cut off inside a generation in 3 of 4 runs on a loaded machine). The runtime reads
// the generations' period only at start, so the test runs again in a test
// binary started with generations of 50 ms, so that whole ones come before
// the end as they might not with the default second. Two pairs of
// goroutines outrun the client; more would starve the goroutines that
// read the trace on a loaded machine, as they would in any program, and
// the test would measure the scheduler. The client writes the trace to a
// file.
func TestTraceBacklogBounded(t *testing.T) {
	if !inGenerationsOf(t, 50*time.Millisecond) {
		return
	}
	const backlog = 4 << 20
	stopWork := pingPong(t, 2)
	base := serve(t, collect.ServerOptions{MaxTraceBacklog: backlog}) + "/debug/pprof/"
	var kept atomic.Int64
	collect.OnTraceDone(func(held, rest int64) { kept.Store(held + rest) })
	defer collect.OnTraceDone(nil)
	sample := []metrics.Sample{{Name: "/memory/classes/other:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		s := []metrics.Sample{{Name: sample[0].Name}}
		for {
			metrics.Read(s)
			peak.Store(max(peak.Load(), s[0].Value.Uint64()))
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	})
	start := time.Now()
	resp, err := http.Get(base + "trace?seconds=3")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("trace: %s", resp.Status)
	}
	f, ferr := os.Create(filepath.Join(t.TempDir(), "trace"))
	if ferr != nil {
		t.Fatal(ferr)
	}
	n, err := io.CopyBuffer(f, slowReader{resp.Body, 32 << 10, 10 * time.Millisecond}, make([]byte, 32<<10))
	resp.Body.Close()
	f.Close()
	close(done)
	wg.Wait()
	stopWork()
	runtimeHeld := int64(peak.Load()) - int64(before)
	growth := runtimeHeld + kept.Load()
	t.Logf("trace of %d bytes in %v (%v); unsent trace peaked at %d bytes in the runtime's buffers, and %d were kept on the heap", n, time.Since(start), err, runtimeHeld, kept.Load())
	if err != nil {
		t.Fatalf("the answer was cut off: %v; want it to end at a generation's end", err)
	}
	// Past the backlog the trace stops, once runTrace's ticker (20 ms)
	// or the trace's reader, between two chunks sent to the slow client,
	// notices; meanwhile two busy pairs go on tracing, and goroutines woken
	// by the network or a timer wait for one of the two Ps the pairs keep
	// busy: up to 4.4 times the backlog was measured (on a loaded 2-core
	// machine; as much as before the rest of a generation was kept, when
	// the answer was cut instead). Both peaks are added, though they need
	// not come at once. Ten times is still a bound, where the unbounded
	// server held the whole trace (8.3 GB for 60 s).
	if growth > 10*backlog {
		t.Errorf("a slow client let %d bytes of trace pile up in the program, want at most 10 times %d", growth, backlog)
	}
	got, rerr := os.ReadFile(f.Name())
	if rerr != nil {
		t.Fatal(rerr)
	}
	ix, ierr := exectrace.ScanIndex(bytes.NewReader(got))
	if ix == nil || ix.Generations() == 0 {
		t.Fatalf("the trace does not begin as a trace: %v", ierr)
	}
	_, lasted := ix.GenerationTimes(ix.Generations() - 1)
	events, rerr := countEvents(got)
	t.Logf("%v of trace in %d generations, %d events: %v", lasted, ix.Generations(), events, rerr)
	switch {
	case lasted > 2500*time.Millisecond:
		t.Fatalf("the trace lasts %v of the 3 s asked: the program did not outrun the client, so nothing was bounded", lasted)
	case events == 0 || rerr != io.EOF:
		t.Errorf("the trace ended early holds %d events, then %v; want whole generations read to their end", events, rerr)
	}
}

// TestTraceKeptRestSent has a client take the first generation of a
// quiet program's trace, then stop reading for 2 s while eight ping-pong
// pairs trace fast: past a 1 MB MaxTraceBacklog the trace stops, and the
// rest of the generation being sent, which passes twice the backlog, is
// sent as the client takes it, the trace's reader waiting for it (the
// runtime holds what it has not read meanwhile). The answer ends at that
// generation's end and reads to its end; such a rest used to be dropped
// and the answer cut inside it. The stop is delayed by a second, as the
// runtime's is in a program that keeps every P busy (here the stop would
// come before the rest passed twice the backlog), and the test runs in a
// binary with generations of 2 s, so that the first ends, small, before
// the program gets busy. A try whose rest stayed under twice the backlog
// shows nothing and is made again, three times at most.
func TestTraceKeptRestSent(t *testing.T) {
	if !inGenerationsOf(t, 2*time.Second) {
		return
	}
	const backlog = 1 << 20
	base := serve(t, collect.ServerOptions{MaxTraceBacklog: backlog}) + "/debug/pprof/"
	var held, kept atomic.Int64
	collect.OnTraceDone(func(h, k int64) { held.Store(h); kept.Store(k) })
	defer collect.OnTraceDone(nil)
	defer collect.DelayTraceStop(time.Second)()
	for try := 1; ; try++ {
		kept.Store(-1)
		resp, err := http.Get(base + "trace?seconds=8")
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			t.Fatalf("trace: %s", resp.Status)
		}
		first := make([]byte, 32<<10)
		n, err := resp.Body.Read(first) // the first generation has ended
		if err != nil {
			resp.Body.Close()
			t.Fatalf("trace: %d bytes, then %v", n, err)
		}
		stopWork := pingPong(t, 8)
		time.Sleep(2 * time.Second)
		rest, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		stopWork()
		got := append(first[:n], rest...)
		if err != nil {
			t.Fatalf("the answer broke off after %d bytes: %v; want it to end at a generation's end", len(got), err)
		}
		events, rerr := countEvents(got)
		t.Logf("try %d: %d bytes, %d events, then %v; the first generation held %d bytes, the rest of the last kept %d at most",
			try, len(got), events, rerr, held.Load(), kept.Load())
		if rerr != io.EOF || events == 0 {
			t.Fatalf("the trace holds %d events, then %v; want whole generations read to their end", events, rerr)
		}
		if kept.Load() > 2*backlog {
			break
		}
		if try == 3 {
			t.Fatalf("in 3 tries the rest of the generation being sent never passed twice a %d-byte backlog", backlog)
		}
	}
}

// countEvents reads a possibly truncated trace, returning how many events
// it yields before its end or an error.
func countEvents(data []byte) (int, error) {
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	for n := 0; ; n++ {
		if _, err := r.ReadEvent(); err != nil {
			return n, err
		}
	}
}

// TestTraceFirstGenerationRefused asks for a trace whose first
// generation outgrows twice MaxTraceBacklog before it ends: the answer is
// a 503 naming the cause, with no trace bytes, rather than a trace cut
// inside its first generation, which nothing can read; and the trace
// stops. In the field that is a program that keeps every P busy, whose
// generations the runtime cannot end for seconds or minutes (2 GB of
// first generation were measured); here the test runs again in a test
// binary whose generations last a minute, so that the first outgrows a
// 4 MB bound while the reader keeps up (a bound the runtime's unread
// buffers passed would stop the trace first, ending the generation).
func TestTraceFirstGenerationRefused(t *testing.T) {
	if !inGenerationsOf(t, time.Minute) {
		return
	}
	stopWork := pingPong(t, 8)
	defer stopWork()
	const backlog = 4 << 20
	base := serve(t, collect.ServerOptions{MaxTraceBacklog: backlog}) + "/debug/pprof/"
	stopped := func() {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for rtrace.IsEnabled() {
			if time.Now().After(deadline) {
				t.Fatal("the refused trace was not stopped in 30 s")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	for try := 1; ; try++ {
		start := time.Now()
		resp, err := http.Get(base + "trace?seconds=20")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("trace: %s, then %v", resp.Status, err)
		}
		msg := strings.TrimSpace(string(body))
		t.Logf("try %d answered in %v: %s %.200q", try, time.Since(start), resp.Status, msg)
		// On a loaded machine the reader can fall behind the runtime, whose
		// unread buffers passing the bound then stop the trace and so end
		// the first generation before it outgrows twice the bound: a
		// whole trace, rightly. Such a try is made again, twice at most.
		if resp.StatusCode == http.StatusOK && strings.HasPrefix(msg, "go 1.") && try < 3 {
			stopped()
			continue
		}
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(msg, "first generation") ||
			strings.Contains(msg, "\n") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("a first generation past twice a %d-byte bound: %s, %s, %d bytes: %.200q; want 503 and one line saying why",
				backlog, resp.Status, resp.Header.Get("Content-Type"), len(body), body)
		}
		break
	}
	stopped()
}
