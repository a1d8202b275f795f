package profiles

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// pprofServer starts a real HTTP server on 127.0.0.1 serving
// net/http/pprof, plus a few misbehaving endpoints, and records the
// queries it receives.
func pprofServer(t *testing.T) (*httptest.Server, *queries) {
	t.Helper()
	q := &queries{}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	fixed := ownProfile(t, "goroutine", 1)
	for _, p := range []string{"/debug/pprof/fixed", "/nosymbol/debug/pprof/fixed"} {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { w.Write(fixed) })
	}
	mux.HandleFunc("/fail", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "disk full: cannot write profile\nsecond line of detail", http.StatusInternalServerError)
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body>Welcome</body></html>\n"))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q.add(r.URL)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, q
}

type queries struct {
	mu   sync.Mutex
	urls []*url.URL
}

func (q *queries) add(u *url.URL) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.urls = append(q.urls, u)
}

func (q *queries) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.urls = nil
}

func (q *queries) first() *url.URL {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.urls[0]
}

func (q *queries) last() *url.URL {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.urls[len(q.urls)-1]
}

func TestFetchProfiles(t *testing.T) {
	srv, q := pprofServer(t)
	host := strings.TrimPrefix(srv.URL, "http://")
	tests := []struct {
		source   string
		seconds  int
		path     string
		query    string
		wantType string
	}{
		{srv.URL + "/debug/pprof/heap", 0, "/debug/pprof/heap", "", "alloc_objects"},
		{srv.URL + "/debug/pprof/goroutine?debug=1", 0, "/debug/pprof/goroutine", "debug=1", "goroutine"},
		{host + "/debug/pprof/allocs", 0, "/debug/pprof/allocs", "", "alloc_objects"},
		{host, 1, "/debug/pprof/profile", "seconds=1", "samples"},
		{srv.URL + "/debug/pprof/profile?seconds=1", 0, "/debug/pprof/profile", "seconds=1", "samples"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			q.reset()
			p, err := Load(context.Background(), []string{tt.source}, Options{Seconds: tt.seconds})
			if err != nil {
				t.Fatal(err)
			}
			if got := q.first(); got.Path != tt.path || got.RawQuery != tt.query {
				t.Errorf("server got %s?%s; want %s?%s", got.Path, got.RawQuery, tt.path, tt.query)
			}
			if p.SampleType[0].Type != tt.wantType {
				t.Errorf("fetched a profile of %s; want %s", p.SampleType[0].Type, tt.wantType)
			}
			// The runtime measures about a second, sometimes a hair less.
			if tt.wantType == "samples" && p.DurationNanos < int64(900*time.Millisecond) {
				t.Errorf("CPU profile lasted %v; want about 1s", time.Duration(p.DurationNanos))
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	srv, _ := pprofServer(t)
	closed := closedAddr(t)
	tests := []struct {
		source string
		opts   Options
		want   string
	}{
		{srv.URL + "/debug/pprof/nosuch", Options{}, "server returned 404 Not Found: Unknown profile"},
		{srv.URL + "/fail", Options{}, "server returned 500 Internal Server Error: disk full: cannot write profile"},
		{srv.URL + "/html", Options{}, `not a profile: unrecognized text format starting "<html><body>Welcome`},
		{srv.URL + "/slow", Options{Timeout: 300 * time.Millisecond}, "timed out after 300ms"},
		{srv.URL + "/debug/pprof/heap", Options{MaxBytes: 100}, "is more than 100 bytes (the limit"},
		{"http://" + closed + "/debug/pprof/heap", Options{}, "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.source, func(t *testing.T) {
			start := time.Now()
			p, err := Load(context.Background(), []string{tt.source}, tt.opts)
			checkError(t, p, err, tt.source+": ", tt.want)
			if strings.Contains(err.Error(), "second line") {
				t.Errorf("error %q shows more than the message's first line", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("failing took %v", d)
			}
		})
	}
}

// closedAddr returns a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestFetchCanceled(t *testing.T) {
	srv, _ := pprofServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := ReadSource(ctx, srv.URL+"/slow", Options{})
	if err == nil || !errors.Is(ctx.Err(), context.DeadlineExceeded) || strings.Contains(err.Error(), "raise it") {
		t.Errorf("ReadSource after the caller's deadline: %v", err)
	}
}

func TestSourceURL(t *testing.T) {
	tests := []struct {
		source  string
		seconds int
		timeout time.Duration
		url     string
		wantT   time.Duration
		dur     int
	}{
		{"localhost:6060", 0, 0, "http://localhost:6060/debug/pprof/profile", 60 * time.Second, 0},
		{"localhost:6060", 10, 0, "http://localhost:6060/debug/pprof/profile?seconds=10", 20 * time.Second, 10},
		{"localhost:6060/debug/pprof/heap", 0, 0, "http://localhost:6060/debug/pprof/heap", 60 * time.Second, 0},
		{"http://h:1/debug/pprof/profile?seconds=4", 0, 0, "http://h:1/debug/pprof/profile?seconds=4", 11 * time.Second, 4},
		{"http://h:1/debug/pprof/profile?seconds=4", 2, 0, "http://h:1/debug/pprof/profile?seconds=2", 8 * time.Second, 2},
		{"https://h/", 0, 5 * time.Second, "https://h/debug/pprof/profile", 5 * time.Second, 0},
	}
	for _, tt := range tests {
		u, timeout, dur, ok := SourceURL(tt.source, tt.seconds, tt.timeout)
		if !ok || u != tt.url || timeout != tt.wantT || dur != tt.dur {
			t.Errorf("SourceURL(%q, %d, %v) = %q, %v, %d, %v; want %q, %v, %d, true",
				tt.source, tt.seconds, tt.timeout, u, timeout, dur, ok, tt.url, tt.wantT, tt.dur)
		}
	}
	for _, s := range []string{"cpu.pprof", "dir/heap.pb.gz", ""} {
		if u, _, _, ok := SourceURL(s, 0, 0); ok {
			t.Errorf("SourceURL(%q) = %q; want not a URL", s, u)
		}
	}
}

// TestFailureCancelsOtherFetches checks that one bad source ends the
// fetches of the others at once, and is the error reported.
func TestFailureCancelsOtherFetches(t *testing.T) {
	srv, _ := pprofServer(t)
	start := time.Now()
	bad := srv.URL + "/debug/pprof/nosuch"
	p, err := Load(context.Background(), []string{srv.URL + "/slow", bad}, Options{})
	checkError(t, p, err, bad+": ", "404 Not Found")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Load took %v; the failure should have canceled the slow fetch", d)
	}
}

// TestRemoteSymbolization fetches a legacy text profile, which has only
// addresses, and checks that it is symbolized by the server's
// /debug/pprof/symbol exactly as go tool pprof -raw does it.
func TestRemoteSymbolization(t *testing.T) {
	srv, q := pprofServer(t)
	src := srv.URL + "/debug/pprof/fixed"
	p, err := Load(context.Background(), []string{src}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := q.last().Path; got != "/debug/pprof/symbol" {
		t.Errorf("last request to %s; want the symbol service", got)
	}
	if !hasFunction(p, "runtime/pprof.writeGoroutine") {
		t.Errorf("no runtime/pprof.writeGoroutine among the functions: %v", p.Function)
	}
	if got, want := p.String(), pprofRaw(t, src); got != want {
		t.Errorf("loaded profile differs from go tool pprof -raw:\n--- got\n%s\n--- want\n%s", got, want)
	}

	bad := srv.URL + "/nosymbol/debug/pprof/fixed"
	p, err = Load(context.Background(), []string{bad}, Options{})
	checkError(t, p, err, srv.URL+"/nosymbol/debug/pprof/symbol: ", "symbolizing: server returned 404 Not Found")
}
