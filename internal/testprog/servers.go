package testprog

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// ClosedPortURL returns the http URL of a loopback port nothing listens on.
func ClosedPortURL(t testing.TB) string {
	t.Helper()
	return "http://127.0.0.1:" + FreePort(t) + "/"
}

// FreePort returns a loopback port that was free a moment ago, for a
// program under test that takes its port as a flag.
func FreePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// RecordingServer starts a real server on 127.0.0.1 serving h, closed
// when the test ends; lastQuery returns the path and query of the last
// request it received.
func RecordingServer(t testing.TB, h http.Handler) (srv *httptest.Server, lastQuery func() string) {
	t.Helper()
	var mu sync.Mutex
	var last string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		last = r.URL.RequestURI()
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() string { mu.Lock(); defer mu.Unlock(); return last }
}

// Get GETs url and returns the status and the body; a request that
// fails, or a body that cannot be read, fails t.
func Get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
