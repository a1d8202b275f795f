package loadgen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// rawServer accepts connections on 127.0.0.1 and hands each to handle.
func rawServer(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				handle(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// readRequest reads one request's head from c.
func readRequest(c net.Conn) {
	buf := make([]byte, 4096)
	var got []byte
	for !strings.Contains(string(got), "\r\n\r\n") {
		n, err := c.Read(buf)
		if err != nil {
			return
		}
		got = append(got, buf[:n]...)
	}
}

func run(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestExactCount(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		u, p, _ := r.BasicAuth()
		if r.URL.Query().Get("q") != "1" || r.Header.Get("X-Test") != "yes" || r.Host != "example.test" || u+p != "ab" {
			w.WriteHeader(400)
		}
		io.WriteString(w, "hello")
	}))
	defer srv.Close()
	url := strings.Replace(srv.URL, "http://", "http://a:b@", 1) + "/?q=1"
	res := run(t, Config{URL: url, N: 1001, C: 7, Host: "example.test", Header: http.Header{"X-Test": {"yes"}}})
	if hits.Load() != 1001 || res.Requests != 1001 || res.StatusCodes[200] != 1001 || res.Bytes != 5*1001 {
		t.Fatalf("server saw %d, result %d requests, codes %v, %d bytes; want 1001 200s of 5 bytes",
			hits.Load(), res.Requests, res.StatusCodes, res.Bytes)
	}
	if res.Latency.Count != 1001 || res.Latency.Min <= 0 || res.Latency.Max < res.Latency.Min ||
		res.Latency.Mean < res.Latency.Min || res.Latency.Mean > res.Latency.Max {
		t.Fatalf("latency %+v", res.Latency)
	}
}

func TestBodiesAndMethods(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch r.URL.Path {
		case "/chunked":
			w.Write([]byte("abc"))
			w.(http.Flusher).Flush()
			w.Write(b)
		case "/close":
			w.Header().Set("Connection", "close")
			w.Write(b)
		default:
			w.Header().Set("Content-Length", "4")
			w.Write([]byte("body"))
		}
	}))
	defer srv.Close()
	tests := []struct {
		path, method string
		body         string
		keepAlive    bool
		bytes        int64
	}{
		{"/chunked", "POST", "12345", true, 8},
		{"/close", "PUT", "xy", true, 2},
		{"/plain", "HEAD", "", true, 0},
		{"/plain", "GET", "", false, 4},
	}
	for _, tt := range tests {
		res := run(t, Config{URL: srv.URL + tt.path, Method: tt.method, Body: []byte(tt.body),
			N: 20, C: 2, DisableKeepAlive: !tt.keepAlive})
		if res.StatusCodes[200] != 20 || res.Bytes != 20*tt.bytes || res.ErrorCount != 0 {
			t.Errorf("%s %s: codes %v, %d bytes, errors %v; want 20 200s of %d bytes",
				tt.method, tt.path, res.StatusCodes, res.Bytes, res.Errors, tt.bytes)
		}
	}
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/from", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/to", 302) })
	mux.HandleFunc("/to", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "arrived") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res := run(t, Config{URL: srv.URL + "/from", N: 10, C: 2})
	if res.StatusCodes[200] != 10 || res.Bytes != 70 {
		t.Errorf("following: codes %v, %d bytes; want 10 200s of 7 bytes", res.StatusCodes, res.Bytes)
	}
	res = run(t, Config{URL: srv.URL + "/from", N: 10, C: 2, DisableRedirects: true})
	if res.StatusCodes[302] != 10 {
		t.Errorf("not following: codes %v; want 10 302s", res.StatusCodes)
	}
}

func TestHTTP2AndTLS(t *testing.T) {
	var protos atomic.Value
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		protos.Store(r.Proto)
		io.WriteString(w, "ok")
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	for _, h2 := range []bool{false, true} {
		res := run(t, Config{URL: srv.URL, N: 10, C: 2, HTTP2: h2})
		want := map[bool]string{false: "HTTP/1.1", true: "HTTP/2.0"}[h2]
		if res.StatusCodes[200] != 10 || protos.Load() != want {
			t.Errorf("HTTP2=%v: codes %v errors %v, server saw %v; want 10 200s over %s",
				h2, res.StatusCodes, res.Errors, protos.Load(), want)
		}
	}
}

func TestProxy(t *testing.T) {
	var proxied atomic.Int64
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "origin") }))
	defer origin.Close()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		resp, err := http.Get(r.URL.String())
		if err != nil {
			w.WriteHeader(502)
			return
		}
		defer resp.Body.Close()
		io.Copy(w, resp.Body)
	}))
	defer proxy.Close()
	pu, _ := ParseURL(proxy.URL)
	res := run(t, Config{URL: origin.URL, N: 5, C: 1, Proxy: pu})
	if res.StatusCodes[200] != 5 || proxied.Load() != 5 || res.Bytes != 30 {
		t.Errorf("codes %v, %d through the proxy, %d bytes; want 5 200s through it", res.StatusCodes, proxied.Load(), res.Bytes)
	}
}

// TestErrorKinds runs against servers that fail in every way a load
// test meets and checks that each failure is counted under its kind.
func TestErrorKinds(t *testing.T) {
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	refusedURL := "http://" + closed.Addr().String() + "/"
	closed.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer plain.Close()
	tests := []struct {
		name, url, kind string
		timeout         time.Duration
	}{
		{"refused", refusedURL, ErrRefused, 0},
		{"dns", "http://nosuchhost.invalid/", ErrDNS, 0},
		{"tls", strings.Replace(plain.URL, "http:", "https:", 1), ErrTLS, 0},
		{"reset", rawServer(t, func(c net.Conn) {
			readRequest(c)
			c.(*net.TCPConn).SetLinger(0)
		}), ErrReset, 0},
		{"timeout", rawServer(t, func(c net.Conn) { readRequest(c); time.Sleep(2 * time.Second) }), ErrTimeout, 100 * time.Millisecond},
		{"mid-response", rawServer(t, func(c net.Conn) {
			readRequest(c)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b")
		}), ErrTruncated, 0},
		{"not http", rawServer(t, func(c net.Conn) { io.WriteString(c, "SSH-2.0-OpenSSH_9.2\r\n") }), ErrMalformed, 0},
		{"silent close", rawServer(t, func(c net.Conn) { readRequest(c) }), ErrClosed, 0},
	}
	for _, tt := range tests {
		res := run(t, Config{URL: tt.url, N: 6, C: 2, Timeout: tt.timeout})
		if res.Requests != 6 || res.ErrorCount != 6 || len(res.Errors) != 1 || res.Errors[0].Kind != tt.kind {
			t.Errorf("%s: %d requests, errors %+v; want 6 errors of kind %q", tt.name, res.Requests, res.Errors, tt.kind)
		}
	}
}

// TestCancel cancels a run once its 4 workers are all stuck on requests
// the server holds: the 50 requests before them completed, and Run must
// return at once with just those.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var hits atomic.Int64
	var canceled atomic.Int64 // when, in UnixNano
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		if n <= 50 {
			return
		}
		if n == 54 {
			canceled.Store(time.Now().UnixNano())
			cancel()
		}
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	defer srv.Close()
	res, err := Run(ctx, Config{URL: srv.URL, Duration: time.Minute, C: 4})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(time.Unix(0, canceled.Load())); took > time.Second {
		t.Errorf("Run returned %v after cancel", took)
	}
	if !res.Interrupted || res.Requests != 50 || res.ErrorCount != 0 || res.Unfinished != 4 {
		t.Errorf("interrupted %v, %d requests, errors %v, %d unfinished; want the 50 that completed, no errors, 4 unfinished",
			res.Interrupted, res.Requests, res.Errors, res.Unfinished)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "ftp://x/"}, {URL: "http://"}, {URL: "::"}, {URL: "http://x:port/"},
		{URL: "http://x/", Method: "GE T"}, {URL: "http://x/", C: -1}, {URL: "http://x/", Rate: -1},
	} {
		if _, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("Run(%+v) succeeded; want an error", cfg)
		}
	}
}

func ExampleRun() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello")
	}))
	defer srv.Close()
	res, err := Run(context.Background(), Config{URL: srv.URL, N: 100, C: 4})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Requests, res.StatusCodes[200], res.Bytes)
	// Output: 100 100 500
}

func TestProgressAndSamples(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Millisecond)
	}))
	defer srv.Close()
	var progress []Progress
	var samples int64
	// 1.5 s for at least 3 reports at 100 ms: a loaded machine misses ticks.
	res := run(t, Config{URL: srv.URL, C: 2, Rate: 400, Duration: 1500 * time.Millisecond,
		ProgressEvery: 100 * time.Millisecond,
		OnProgress:    func(p Progress) { progress = append(progress, p) },
		OnSample: func(s Sample) {
			samples++
			if s.Status != 200 || s.Latency < time.Millisecond || s.Uncorrected > s.Latency || s.Offset > 2*time.Second {
				t.Errorf("bad sample %+v", s)
			}
		}})
	if samples != res.Responses || samples < 100 {
		t.Errorf("%d samples for %d responses", samples, res.Responses)
	}
	if len(progress) < 3 {
		t.Fatalf("%d progress reports in 1.5 s at 100ms", len(progress))
	}
	last := progress[len(progress)-1]
	if last.Sent <= progress[0].Sent || last.Sent > res.Requests || last.P50 < time.Millisecond || last.P99 < last.P50 {
		t.Errorf("progress %+v ... %+v for %d requests", progress[0], last, res.Requests)
	}
}

// TestDurationBounded checks that a run against a server that never
// answers ends at Duration + EndGrace even without a request timeout.
func TestDurationBounded(t *testing.T) {
	url := rawServer(t, func(c net.Conn) { readRequest(c); time.Sleep(5 * time.Second) })
	start := time.Now()
	res := run(t, Config{URL: url, C: 2, Duration: 200 * time.Millisecond})
	if took := time.Since(start); took > 200*time.Millisecond+EndGrace+500*time.Millisecond {
		t.Errorf("run took %v", took)
	}
	if res.Requests != 0 || res.Unfinished != 2 || res.Interrupted {
		t.Errorf("%d requests counted, %d unfinished, interrupted %v; want the 2 hung ones abandoned, unfinished",
			res.Requests, res.Unfinished, res.Interrupted)
	}
	if err := res.Err(); !errors.Is(err, ErrNothingCompleted) ||
		!strings.HasSuffix(err.Error(), "completed: 2 still in flight at the end, abandoned") {
		t.Errorf("Err() = %v; want no request completed: 2 still in flight", err)
	}
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), "  Unfinished:\t2 requests still in flight at the end, abandoned\n") {
		t.Errorf("report does not show the unfinished requests:\n%s", b.String())
	}
}

// TestIdleCloseRetried: a server that answers once per connection and
// then closes it without saying so. A GET that finds its reused
// connection closed is sent again on a new one, as net/http does.
func TestIdleCloseRetried(t *testing.T) {
	var conns atomic.Int64
	url := rawServer(t, func(c net.Conn) {
		conns.Add(1)
		readRequest(c)
		io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	})
	res := run(t, Config{URL: url, N: 20, C: 1})
	if res.StatusCodes[200] != 20 || res.ErrorCount != 0 || conns.Load() != 20 {
		t.Errorf("codes %v, errors %v over %d connections; want 20 200s over 20", res.StatusCodes, res.Errors, conns.Load())
	}
}

// TestNetHTTPHeaders sends through net/http what TestExactCount sends
// through the lean client: the workers share one header, which net/http
// must copy, not change, to add the URL's basic auth.
func TestNetHTTPHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		if r.Header.Get("X-Test") != "yes" || r.Host != "example.test" || u+p != "ab" || r.UserAgent() != userAgent {
			w.WriteHeader(400)
		}
	}))
	defer srv.Close()
	header := http.Header{"X-Test": {"yes"}}
	url := strings.Replace(srv.URL, "http://", "http://a:b@", 1)
	res := run(t, Config{URL: url, N: 100, C: 4, Host: "example.test", Header: header, netHTTP: true})
	if res.StatusCodes[200] != 100 || len(header) != 1 {
		t.Errorf("codes %v, errors %v, Config.Header now %v; want 100 200s and it unchanged", res.StatusCodes, res.Errors, header)
	}
}
