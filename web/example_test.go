package web_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// A server for a loaded profile, asked for the top view with pprof's URL
// parameters, and for a view with a broken regexp.
func ExampleNew() {
	s, err := web.New(cpuProfile(), web.Options{Report: report.DefaultOptions(), Title: "cpu.pprof"})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(s) // perflab web serves it on 127.0.0.1
	defer srv.Close()
	for _, path := range []string{"/ui/api/top?sort=cum&n=2", "/ui/top?f=("} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(path, resp.StatusCode, strings.Count(string(body), `"flat_text"`), strings.Contains(string(body), "missing closing )"))
	}
	// Output:
	// /ui/api/top?sort=cum&n=2 200 2 false
	// /ui/top?f=( 400 0 true
}
