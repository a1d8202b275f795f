package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
)

// flameServerPage is a page that draws a flame graph in server mode:
// flame.js imported as a module, views fetched from /view.
const flameServerPage = `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/flame.css"></head><body><div id="g"></div>
<script type="module">
import { FlameGraph, queryParams } from "/flame.js";
const g = new FlameGraph(document.getElementById("g"), {
	load: (q) => fetch("/view?" + queryParams(q)).then((r) => r.ok ? r.json() : r.text().then((t) => { throw new Error(t); })),
	onQuery: (q) => { window.lastQuery = q; },
	onSelect: (name) => { window.selected = name; },
});
window.perflabFlames = { "perflab-flame": g };
g.setQuery({ path: [] });
</script></body></html>`

// TestFlameServerMode serves flame.Assets and Tree.View's JSON, as perflab
// web does, and checks that the graph loads its views from the server:
// the first view, a zoom, a search and a sandwich each fetch one.
func TestFlameServerMode(t *testing.T) {
	profs := reporttest.Generate(t)
	p, err := profiles.Load(context.Background(), []string{profs.Path("cpu.pb.gz")}, profiles.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := flame.Build(p, report.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var requests atomic.Int32
	mux := http.NewServeMux()
	mux.Handle("/flame.js", http.FileServerFS(flame.Assets()))
	mux.Handle("/flame.css", http.FileServerFS(flame.Assets()))
	mux.HandleFunc("/view", func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		q, err := flame.ParseQuery(r.URL.Query())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		v, err := tree.View(q)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(flameServerPage)) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	b := browser.ForTest(t)
	pg, err := b.Open(srv.URL+"/", 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	waitFor(t, pg, `!!(window.perflabFlames && window.perflabFlames["perflab-flame"].view)`)
	if ink, err := browser.CanvasInk(pg, ".pf-canvas", "color"); err != nil || ink[0] < 1000 {
		t.Fatalf("canvas ink %v (err %v)", ink, err)
	}
	name := clickFrame(t, pg, `main\.`, false)
	waitFor(t, pg, fg+`.view.raw.path.length > 0`)
	path, _ := browser.Eval[[]string](pg, `window.lastQuery.path`)
	if len(path) == 0 || path[len(path)-1] != name {
		t.Errorf("after clicking %s the query's path is %q", name, path)
	}
	if _, err := browser.Eval[bool](pg, `(() => { const s = document.querySelector(".pf-search"); s.value = "mallocgc"; s.dispatchEvent(new Event("input")); return true; })()`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, pg, fg+`.view.raw.search === "mallocgc"`)
	match, _ := browser.Eval[string](pg, `document.querySelector(".pf-match").textContent`)
	if !strings.Contains(match, "%") {
		t.Errorf("search shows %q", match)
	}
	sel := clickFrame(t, pg, `.`, true)
	waitFor(t, pg, fg+`.view.raw.sandwich !== ""`)
	if got, _ := browser.Eval[string](pg, `window.selected`); got != sel {
		t.Errorf("onSelect got %q, want %q", got, sel)
	}
	if n := requests.Load(); n < 4 {
		t.Errorf("%d view requests, want one per view (4)", n)
	}
	browser.ScreenshotForTest(t, pg, "flame-server-sandwich")
	if errs := pg.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
