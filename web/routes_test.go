package web_test

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// TestRoutesAsPprof requests pprof's paths, and pprof's bookmarks of them,
// from go tool pprof -http and from perflab's server on the same profile:
// each must lead to the same view (following redirects, query kept), and
// be there or missing in both.
func TestRoutesAsPprof(t *testing.T) {
	pr := reporttest.Generate(t)
	pprofURL := startPprofHTTP(t, pr.Path("cpu.pb.gz"))
	srv := serve(t, reporttest.ReadProfile(t, pr.Path("cpu.pb.gz")), web.Options{Report: report.DefaultOptions(), Binary: pr.Binary})
	for _, path := range []string{
		"/", "/?f=main", "/ui", "/ui/", "/ui/?f=main", "/ui/?f=main&si=cpu", "/ui/flamegraph?f=main",
		"/ui/flamegraph2?f=main", "/ui/flamegraphold?f=main", "/ui/graph?f=main", "/ui/top?f=main",
		"/ui/peek?f=main.cpuWork", "/ui/source?f=main.cpuWork", "/ui/disasm?f=main.cpuWork", "/ui/nosuch",
	} {
		wantPath, wantQuery, wantMissing := follow(t, pprofURL+path)
		gotPath, gotQuery, gotMissing := follow(t, srv.URL+path)
		if gotPath != wantPath || gotMissing != wantMissing {
			t.Errorf("%s: perflab leads to %s (missing %v), go tool pprof -http to %s (missing %v)", path, gotPath, gotMissing, wantPath, wantMissing)
		}
		for k, v := range wantQuery { // perflab adds its initial settings to an empty query
			if gotQuery.Get(k) != v[0] {
				t.Errorf("%s: perflab's %s has %s=%q, pprof's %q", path, gotPath, k, gotQuery.Get(k), v[0])
			}
		}
	}
}

// follow GETs u, following redirects, and returns the path and query it
// ends at and whether that is missing (404).
func follow(t *testing.T, u string) (string, url.Values, bool) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Request.URL.Path, resp.Request.URL.Query(), resp.StatusCode == http.StatusNotFound
}

// startPprofHTTP runs go tool pprof -http on 127.0.0.1 (a free port) for
// the profile, until the test ends, and returns its URL.
func startPprofHTTP(t *testing.T, prof string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, reporttest.Pprof(t), "-http=127.0.0.1:", "-no_browser", prof)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, u, ok := strings.Cut(sc.Text(), "Serving web UI on "); ok {
				found <- u
			}
		}
		close(found)
	}()
	var u string
	select {
	case v, ok := <-found:
		if !ok {
			t.Fatal("go tool pprof -http ended without serving")
		}
		u = v
	case <-time.After(30 * time.Second):
		t.Fatal("go tool pprof -http did not say where it serves within 30s")
	}
	// pprof says where before it listens there.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(u + "/ui/top"); err == nil {
			resp.Body.Close()
			return u
		}
	}
	t.Fatalf("go tool pprof -http does not answer at %s", u)
	return ""
}
