package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// medium is a profgen profile a tenth of the benchmark's: big enough
// that a server copying or re-parsing it per request would show.
var medium = profgen.Config{Seed: 1, Samples: 50_000, Locations: 20_000, Functions: 2_000,
	MaxDepth: 60, InlinePercent: 20, LabelPercent: 10, SourceRoot: "/home/build/src"}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestBigProfileMemory serves a generated 50,000-sample profile through
// every view and refinement and checks that the heap stays within a few
// times what the loaded profile takes, however many requests are made.
func TestBigProfileMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 50k-sample profile")
	}
	before := heapInUse()
	p, err := profgen.Generate(medium)
	if err != nil {
		t.Fatal(err)
	}
	loaded := heapInUse() - before
	s, err := web.New(p, web.Options{Report: report.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	paths := []string{"/ui/top", "/ui/api/top?sort=cum", "/ui/peek?f=ComputeRecord", "/ui/graph",
		"/ui/flamegraph", "/download?f=Compute"}
	for i := range 8 { // distinct refinements, each computed, some cached
		paths = append(paths, fmt.Sprintf("/ui/top?f=Compute&i=Render%d&n=%d", i, 10+i), fmt.Sprintf("/ui/api/top?tf=handler=/api/v%d", i%3))
	}
	var peak uint64
	for _, path := range paths {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d", path, resp.StatusCode)
		}
		peak = max(peak, heapInUse()-before)
	}
	t.Logf("profile: %d MB in memory; heap after every request at most %d MB", loaded>>20, peak>>20)
	if limit := 3*loaded + 64<<20; peak > limit {
		t.Errorf("heap grew to %d MB serving a %d MB profile (limit %d MB)", peak>>20, loaded>>20, limit>>20)
	}
	runtime.KeepAlive(p)
}

// benchServer returns a server of a profgen profile of config c.
func benchServer(b *testing.B, c profgen.Config) (*web.Server, *profile.Profile) {
	p, err := profgen.Generate(c)
	if err != nil {
		b.Fatal(err)
	}
	s, err := web.New(p, web.Options{Report: report.DefaultOptions(), CacheBytes: 1})
	if err != nil {
		b.Fatal(err)
	}
	return s, p
}

// BenchmarkServe measures the server's answer to one view, uncached:
// each iteration asks a refinement it has not seen (the cache keeps one).
func BenchmarkServe(b *testing.B) {
	s, _ := benchServer(b, medium)
	for _, bc := range []struct{ name, path string }{
		{"top", "/ui/api/top?n=%d"},
		{"top-focus", "/ui/api/top?f=Compute&n=%d"},
		{"peek", "/ui/peek?f=ComputeRecord&n=%d"},
		{"graph", "/ui/graph?n=%d"},
		{"flame", "/ui/api/flame?n=%d"},
	} {
		path := bc.path
		b.Run(bc.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1"+fmt.Sprintf(path, 10+i%2), nil))
				if w.Code != http.StatusOK && w.Code != http.StatusNotFound {
					b.Fatalf("%s: status %d: %s", path, w.Code, w.Body)
				}
			}
		})
	}
}

// BenchmarkCached measures a repeated request, answered from the cache.
func BenchmarkCached(b *testing.B) {
	s, _ := benchServer(b, medium)
	s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "http://127.0.0.1/ui/top?f=Compute", nil)) // computed once
	for b.Loop() {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1/ui/top?f=Compute", nil))
		if w.Code != http.StatusOK {
			b.Fatal(w.Code)
		}
	}
}
