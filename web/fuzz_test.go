package web_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// FuzzServeQuery sends any query string to every view: the server
// answers 200, or 400 with the error in place, never panics or fails
// otherwise.
func FuzzServeQuery(f *testing.F) {
	f.Add("/ui/top", "f=main&sort=cum&n=2")
	f.Add("/ui/peek", "f=(")
	f.Add("/ui/source", "f=work&g=bogus")
	f.Add("/ui/graph", "tf=worker=w1&si=samples")
	f.Add("/ui/api/top", "tf=1kb:2kb&nf=x")
	f.Add("/download", "i=helper&sf=main")
	s, err := web.New(cpuProfile(), web.Options{Report: report.DefaultOptions()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, query string) { fuzzQuery(t, s, path, query) })
}

// fuzzQuery sends GET path?query to h: the answer must be 200, 400 with
// the error in place, 404 or a redirect, never a panic or another status.
func fuzzQuery(t *testing.T, h http.Handler, path, query string) {
	req, err := http.NewRequest("GET", "http://127.0.0.1/", nil)
	if err != nil {
		t.Skip()
	}
	req.URL.Path, req.URL.RawQuery = path, query
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	switch {
	case w.Code == http.StatusOK, w.Code == http.StatusBadRequest, w.Code == http.StatusNotFound, w.Code/100 == 3:
	default:
		t.Errorf("%s?%s: status %d: %s", path, query, w.Code, w.Body)
	}
}
