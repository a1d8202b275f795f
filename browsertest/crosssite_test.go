package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// A seen request is what the viewer answered to whom.
type seen struct {
	path, site string
	status     int
}

// statusRecorder keeps the status a handler answered.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// TestCrossSitePageRefused opens, in Chromium, a page of another site
// (http://localhost:PORT, another site than the viewer's 127.0.0.1) that
// loads the viewer's compiler notes as an image, fetches its download and
// frames a view: the browser marks the three requests cross-site, and the
// viewer answers each with 403 (the notes build used to start from an
// <img>). Opened directly, the viewer draws its flame graph, its own
// requests being same-origin.
func TestCrossSitePageRefused(t *testing.T) {
	b := browser.ForTest(t)
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.New(p, web.Options{Report: report.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []seen
	viewer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		s.ServeHTTP(rec, r)
		mu.Lock()
		log = append(log, seen{r.URL.Path, r.Header.Get("Sec-Fetch-Site"), rec.status})
		mu.Unlock()
	}))
	defer viewer.Close()
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body>
<img src="%[1]s/ui/api/notes?f=main">
<iframe src="%[1]s/ui/top"></iframe>
<script>fetch(%[1]q + "/download", {mode: "no-cors"}).catch(() => {});</script>
</body></html>`, viewer.URL)
	}))
	defer attacker.Close()
	page, err := b.Open(strings.Replace(attacker.URL, "127.0.0.1", "localhost", 1), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	want := map[string]bool{"/ui/api/notes": true, "/ui/top": true, "/download": true}
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := 0
		for _, e := range log {
			if want[e.path] {
				n++
			}
		}
		mu.Unlock()
		if n >= len(want) || time.Now().After(end) {
			break
		}
	}
	mu.Lock()
	got := append([]seen(nil), log...)
	mu.Unlock()
	for path := range want {
		found := false
		for _, e := range got {
			if e.path != path {
				continue
			}
			found = true
			if e.site != "cross-site" || e.status != http.StatusForbidden {
				t.Errorf("%s from the page of another site: Sec-Fetch-Site %q, status %d; want cross-site and 403", path, e.site, e.status)
			}
		}
		if !found {
			t.Errorf("the page of another site did not request %s (requests: %v)", path, got)
		}
	}

	own := openView(t, b, viewer.URL+"/ui/flamegraph")
	defer own.Close()
	ink, err := browser.CanvasInk(own, "canvas", "")
	if err != nil || len(ink) == 0 || ink[0] == 0 {
		t.Errorf("the viewer opened directly drew no flame graph: %v %v", ink, err)
	}
}
