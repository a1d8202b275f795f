package collect_test

import (
	"bufio"
	"bytes"
	"net/http"
	"net/http/httptest"
	httppprof "net/http/pprof"
	"testing"

	"github.com/perflab/perflab/collect"
)

// TestMatchesNetHTTPPprof sends the same requests to collect's handler and
// to net/http/pprof's, the interface every pprof client expects, and
// compares status, headers, the first line of text answers and the
// sample types of profiles.
func TestMatchesNetHTTPPprof(t *testing.T) {
	ours := serve(t, collect.ServerOptions{Cmdline: true})
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", httppprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", httppprof.Cmdline)
	mux.HandleFunc("/debug/pprof/symbol", httppprof.Symbol)
	oracle := httptest.NewServer(mux)
	defer oracle.Close()

	for _, path := range []string{
		"heap", "heap?gc=1", "allocs", "block", "mutex", "threadcreate", "goroutine",
		"heap?debug=1", "goroutine?debug=1", "goroutine?debug=2", "threadcreate?debug=1",
		"cmdline", "symbol", "nosuch",
	} {
		got := get(t, ours+"/debug/pprof/"+path, "")
		want := get(t, oracle.URL+"/debug/pprof/"+path, "")
		if got.status != want.status {
			t.Errorf("%s: status %d, net/http/pprof %d", path, got.status, want.status)
			continue
		}
		for _, h := range []string{"Content-Type", "Content-Disposition", "X-Content-Type-Options"} {
			if g, w := got.header.Get(h), want.header.Get(h); g != w {
				t.Errorf("%s: %s %q, net/http/pprof %q", path, h, g, w)
			}
		}
		if got.status != http.StatusOK {
			continue
		}
		if got.header.Get("Content-Type") == "application/octet-stream" {
			if g, w := sampleTypes(parse(t, path, got.body)), sampleTypes(parse(t, path, want.body)); g != w {
				t.Errorf("%s: sample types %s, net/http/pprof %s", path, g, w)
			}
			continue
		}
		if g, w := firstWord(got.body), firstWord(want.body); g != w {
			t.Errorf("%s: answer starts %q, net/http/pprof's %q", path, g, w)
		}
	}
}

// firstWord returns the start of the first line of a text answer, up to
// its first digit: the part that names the format, not the figures.
func firstWord(b []byte) string {
	line, _, _ := bufio.NewReader(bytes.NewReader(b)).ReadLine()
	if i := bytes.IndexAny(line, "0123456789"); i >= 0 {
		line = line[:i]
	}
	return string(line)
}
