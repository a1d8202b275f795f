package web_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// crossSite requests path from srv with the headers a browser sends when
// a page of another site makes it (an <img>, a fetch, a form), and
// returns the status.
func crossSite(t *testing.T, srv *httptest.Server, method, path string, h map[string]string) int {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(nil))
	for k, v := range h {
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestCrossSiteRefusedEverywhere sends the requests a page of another site
// can make a browser send to every route of the three servers that does
// work or returns data: each gets 403 (the notes build used to start from
// an <img>), while static assets are served and the same routes answer
// the browser's own navigation and same-origin requests.
func TestCrossSiteRefusedEverywhere(t *testing.T) {
	profileSrv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	traceSrv, _ := traceServer(t)
	dumpSrv := dumpServer(t, dumps(t, 3)[0], nil)
	routes := []struct {
		srv    *httptest.Server
		method string
		paths  []string
	}{
		{profileSrv, "GET", []string{"/", "/ui/", "/ui/flamegraph", "/ui/top", "/ui/graph", "/ui/peek?f=main", "/ui/source?f=main",
			"/ui/sandwich", "/ui/api/top", "/ui/api/peek?f=main", "/ui/api/flame", "/ui/api/graph.svg", "/ui/api/source?f=main",
			"/ui/api/notes?f=main", "/ui/api/base", "/download", "/ui/top?base=0123456789abcdef"}},
		{profileSrv, "POST", []string{"/ui/api/base"}},
		{traceSrv, "GET", []string{"/ui/timeline", "/ui/trace", "/ui/timeline/tiles", "/ui/timeline/stack?t=1&p=0", "/ui/api/trace"}},
		{dumpSrv, "GET", []string{"/ui/goroutines", "/ui/api/goroutines"}},
	}
	for _, rt := range routes {
		for _, path := range rt.paths {
			for _, h := range []map[string]string{
				{"Sec-Fetch-Site": "cross-site"},
				{"Sec-Fetch-Site": "same-site"}, // another port of 127.0.0.1
				{"Origin": "http://evil.example"},
			} {
				if code := crossSite(t, rt.srv, rt.method, path, h); code != http.StatusForbidden {
					t.Errorf("%s %s with %v: %d, want 403", rt.method, path, h, code)
				}
			}
		}
	}
	for _, rt := range routes[2:] {
		for _, path := range rt.paths[:2] {
			if code := crossSite(t, rt.srv, "GET", path, map[string]string{"Sec-Fetch-Site": "none"}); code != http.StatusOK {
				t.Errorf("GET %s typed in the address bar: %d, want 200", path, code)
			}
		}
	}
	for _, path := range []string{"/ui/top", "/ui/api/flame"} {
		if code := crossSite(t, profileSrv, "GET", path, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": profileSrv.URL}); code != http.StatusOK {
			t.Errorf("GET %s from the server's own page: %d, want 200", path, code)
		}
	}
	for _, tc := range []struct {
		srv  *httptest.Server
		path string
	}{{profileSrv, "/ui/assets/style.css"}, {traceSrv, "/ui/assets/style.css"}, {dumpSrv, "/ui/assets/style.css"}} {
		if code := crossSite(t, tc.srv, "GET", tc.path, map[string]string{"Sec-Fetch-Site": "cross-site"}); code != http.StatusOK {
			t.Errorf("asset %s cross-site: %d, want 200", tc.path, code)
		}
	}
}

// TestTokenRequired serves a profile with a token, as perflab web -http
// does on a non-loopback address: every route but none answers without
// it, a bearer header (any case of the scheme) or the cookie set by one
// visit with ?token= opens them.
func TestTokenRequired(t *testing.T) {
	const token = "v1ewer-t0ken"
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), AnyHost: true, Token: token})
	for _, path := range []string{"/ui/top", "/ui/api/top", "/download", "/ui/assets/style.css"} {
		if code, body := get(t, srv, path); code != http.StatusUnauthorized || strings.Contains(body, token) {
			t.Errorf("GET %s without the token: %d %q, want 401", path, code, body)
		}
		if code := crossSite(t, srv, "GET", path, map[string]string{"Authorization": "bearer " + token}); code != http.StatusOK {
			t.Errorf("GET %s with the bearer token: %d, want 200", path, code)
		}
	}
}
