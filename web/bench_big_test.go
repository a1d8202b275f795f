package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// BenchmarkBig500k measures the server's answer to each refinement on
// the 500,000-sample profile (profgen.Default, cached under
// $TMPDIR/perflab-profgen; generated on first use, about a minute).
// Every iteration asks for a refinement the server has not seen (the
// answer cache keeps one entry), so nothing comes from a cache of
// answers; what the server keeps per profile (indexes) may be reused.
// Skipped with -short.
//
//	go test ./web -run '^$' -bench Big500k -benchtime 3x
func BenchmarkBig500k(b *testing.B) {
	if testing.Short() {
		b.Skip("needs the 500k-sample generated profile")
	}
	path, err := profgen.Benchmark()
	if err != nil {
		b.Fatal(err)
	}
	p, err := profiles.Load(context.Background(), []string{path}, profiles.Options{})
	if err != nil {
		b.Fatal(err)
	}
	s, err := web.New(p, web.Options{Report: report.DefaultOptions(), CacheBytes: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, path string }{
		{"top", "/ui/api/top?n=%d"},
		{"top-new-focus", "/ui/api/top?f=Compute&n=%d"},
		{"peek-new-focus", "/ui/api/peek?f=Compute&n=%d"},
		{"graph", "/ui/graph?n=%d"},
		{"graph-new-focus", "/ui/graph?f=Compute&n=%d"},
		{"flame-new-filter", "/ui/api/flame?f=Compute&i=Render%d"},
		{"flame-zoom", "/ui/api/flame?path=root&maxframes=%d"},
	} {
		path := bc.path
		b.Run(bc.name, func(b *testing.B) {
			cpu := cputime.Self()
			for i := 0; b.Loop(); i++ {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1"+fmt.Sprintf(path, 80+i%2), nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: status %d: %s", path, w.Code, w.Body)
				}
			}
			testprog.ReportCPU(b, cpu) // steadier than elapsed time on a shared machine
		})
	}
}
