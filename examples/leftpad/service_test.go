package leftpad

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log destination safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// statsdListener is a real StatsD receiver: a UDP socket on 127.0.0.1.
func statsdListener(t *testing.T) (*net.UDPConn, net.Conn) {
	t.Helper()
	ln, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	client, err := net.Dial("udp", ln.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	return ln, client
}

// readPackets reads n packets from ln, failing after a timeout.
func readPackets(t *testing.T, ln *net.UDPConn, n int) []string {
	t.Helper()
	var packets []string
	buf := make([]byte, 1500)
	ln.SetReadDeadline(time.Now().Add(10 * time.Second))
	for range n {
		m, err := ln.Read(buf)
		if err != nil {
			t.Fatalf("after %d of %d StatsD packets: %v", len(packets), n, err)
		}
		packets = append(packets, string(buf[:m]))
	}
	return packets
}

type exchange struct {
	status int
	body   string
}

// TestServer runs each version behind a real HTTP server on 127.0.0.1:0,
// sends real requests and receives the StatsD packets over UDP. Both
// versions must answer identically.
func TestServer(t *testing.T) {
	requests := []struct {
		method, target string
		status         int
		body           string // expected body for status 200
	}{
		{"GET", "/v1/leftpad/?str=test&len=10&chr=*", 200, `{"str":"******test"}` + "\n"},
		{"GET", "/v1/leftpad/?str=%3Ca%3E&len=5", 200, `{"str":"  \u003ca\u003e"}` + "\n"},
		{"GET", "/v1/leftpad/?str=x&len=5&chr=%C3%A9", 200, `{"str":"ééx"}` + "\n"},
		{"GET", "/v1/leftpad/?str=long", 200, `{"str":"long"}` + "\n"},
		{"GET", "/v1/leftpad/?str=x&len=abc", 400, ""},
		{"GET", "/v1/leftpad/?str=x&len=99999999", 400, ""},
		{"GET", "/v1/leftpad/?str=x&len=3&chr=ab", 400, ""},
		{"POST", "/v1/leftpad/?str=x&len=3", 405, ""},
		{"GET", "/v2/other", 404, ""},
	}
	results := map[Version][]exchange{}
	for _, v := range []Version{V1, V2} {
		ln, client := statsdListener(t)
		var log syncBuffer
		svc := New(Options{Version: v, StatsD: client, Log: &log})
		srv := httptest.NewServer(svc)
		served := 0
		for _, rq := range requests {
			req, _ := http.NewRequest(rq.method, srv.URL+rq.target, nil)
			req.Header.Set("User-Agent", "perflab-test/1.0")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != rq.status || (rq.status == 200 && (string(body) != rq.body || resp.Header.Get("Content-Type") != "application/json")) {
				t.Errorf("%v %s %s: %d %q (%s), want %d %q", v, rq.method, rq.target, resp.StatusCode, body, resp.Header.Get("Content-Type"), rq.status, rq.body)
			}
			results[v] = append(results[v], exchange{resp.StatusCode, string(body)})
			if strings.HasPrefix(rq.target, "/v1/leftpad/") {
				served++
			}
		}
		packets := readPackets(t, ln, 2*served)
		for i, p := range packets {
			want := "leftpad.requests:1|c"
			if i%2 == 1 {
				want = "leftpad.duration:"
			}
			if !strings.HasPrefix(p, want) || (i%2 == 1 && !strings.HasSuffix(p, "|ms")) {
				t.Errorf("%v: StatsD packet %d = %q, want %q...", v, i, p, want)
			}
		}
		srv.Close()
		if err := svc.Close(); err != nil {
			t.Fatal(err)
		}
		logged := log.String()
		for _, want := range []string{"url=/v1/leftpad/?str=test&len=10&chr=*", "ip=127.0.0.1", `user_agent="perflab-test/1.0"`} {
			if !strings.Contains(logged, want) {
				t.Errorf("%v: log lacks %q:\n%s", v, want, logged)
			}
		}
		if lines := strings.Count(logged, "url="); lines != served {
			t.Errorf("%v: %d requests logged, want %d", v, lines, served)
		}
	}
	for i := range requests {
		if results[V1][i] != results[V2][i] {
			t.Errorf("%s: v1 answered %v, v2 %v", requests[i].target, results[V1][i], results[V2][i])
		}
	}
}

// TestBufferedLogFlushes checks that V2's log reaches its writer within
// the flush interval, not only on Close.
func TestBufferedLogFlushes(t *testing.T) {
	var out syncBuffer
	l := newBufferedLog(&out, 10*time.Millisecond)
	defer l.Close()
	req := httptest.NewRequest("GET", "/v1/leftpad/?str=a", nil)
	l.Request(time.Now(), req)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "url=/v1/leftpad/?str=a") {
		if time.Now().After(deadline) {
			t.Fatal("log line not flushed within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// nullResponse is a reusable ResponseWriter that keeps nothing, so that
// allocation counts are the handler's own.
type nullResponse struct {
	h      http.Header
	status int
}

func (w *nullResponse) Header() http.Header         { return w.h }
func (w *nullResponse) Write(b []byte) (int, error) { return len(b), nil }
func (w *nullResponse) WriteHeader(status int)      { w.status = status }

// serveOne returns a function that sends one request for
// /v1/leftpad/?str=test&len=50&chr=* through the whole request path of
// version v, metrics and logging included, discarding the response. The
// service is closed when tb ends.
func serveOne(tb testing.TB, v Version) func() {
	svc := New(Options{Version: v})
	tb.Cleanup(func() { svc.Close() })
	req := httptest.NewRequest("GET", "/v1/leftpad/?str=test&len=50&chr=*", nil)
	w := &nullResponse{h: http.Header{}}
	return func() {
		clear(w.h)
		req.Form = nil // parse the query again, as a new request would
		svc.ServeHTTP(w, req)
	}
}

// TestAllocsV2 checks the case study's goal: V2 makes at most a quarter of
// V1's allocations per request.
func TestAllocsV2(t *testing.T) {
	v1, v2 := testing.AllocsPerRun(200, serveOne(t, V1)), testing.AllocsPerRun(200, serveOne(t, V2))
	t.Logf("allocs per request: v1 %.0f, v2 %.0f", v1, v2)
	if v2 > v1/4 {
		t.Errorf("v2 makes %.0f allocations per request, more than a quarter of v1's %.0f", v2, v1)
	}
}
