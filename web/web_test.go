package web_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
	"github.com/perflab/perflab/web"
)

// cpuProfile is a small CPU profile: main.main calls main.work, which
// spends most of its time in the inlined main.helper; some samples carry
// a worker label.
func cpuProfile() *profile.Profile {
	mainFn := &profile.Function{ID: 1, Name: "main.main", Filename: "main.go"}
	work := &profile.Function{ID: 2, Name: "main.work", Filename: "main.go"}
	helper := &profile.Function{ID: 3, Name: "main.helper", Filename: "main.go"}
	l1 := &profile.Location{ID: 1, Line: []profile.Line{{Function: mainFn, Line: 10}}}
	l2 := &profile.Location{ID: 2, Line: []profile.Line{{Function: helper, Line: 30}, {Function: work, Line: 20}}}
	l3 := &profile.Location{ID: 3, Line: []profile.Line{{Function: work, Line: 21}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10e6,
		Function: []*profile.Function{mainFn, work, helper},
		Location: []*profile.Location{l1, l2, l3},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{l2, l1}, Value: []int64{7, 70e6}, Label: map[string][]string{"worker": {"w1"}}},
			{Location: []*profile.Location{l3, l1}, Value: []int64{2, 20e6}},
			{Location: []*profile.Location{l1}, Value: []int64{1, 10e6}},
		},
	}
}

// serve starts a real server on 127.0.0.1:0 for p.
func serve(t *testing.T, p *profile.Profile, o web.Options) *httptest.Server {
	t.Helper()
	s, err := web.New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

// get fetches path and returns the status and body.
func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	return testprog.Get(t, srv.URL+path)
}

func TestEndpoints(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), Title: "cpu.pprof"})
	for _, tc := range []struct {
		path string
		want []string // substrings of the body
	}{
		{"/ui/top", []string{`id="top"`, `data-name="main.helper"`, "70.00%", `<a href="/ui/graph?`}},
		{"/ui/top?n=1", []string{"main.helper", "Showing top 1 nodes out of 3"}},
		{"/ui/peek?f=main.work", []string{`class="peek"`, "main.helper", "main.main"}},
		{"/ui/source?f=main.work", []string{"main.work in main.go"}},
		{"/ui/api/top?si=samples", []string{`"sample_type": "samples"`, `"name": "main.helper"`}},
		{"/ui/api/peek?f=main.work", []string{`"callers"`, `"callees"`}},
		{"/ui/flamegraph", []string{`id="flame-data"`, `"main.helper"`}},
		{"/ui/api/flame?search=helper", []string{`"search":"helper"`, `"main.helper"`}},
		{"/ui/sandwich?sandwich=main.work", []string{`id="functions"`, `data-sandwich="main.work"`}},
		{"/ui/graph", []string{"<svg", `data-name="main.work"`}},
		{"/ui/api/graph.svg", []string{"<svg"}},
		{"/ui/top?tf=worker%3Dw1", []string{"tagfocus=worker=w1", "main.helper"}},
	} {
		code, body := get(t, srv, tc.path)
		if code != http.StatusOK {
			t.Errorf("GET %s: status %d\n%s", tc.path, code, body)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: body lacks %q", tc.path, w)
			}
		}
	}
	resp, err := srv.Client().Get(srv.URL + "/ui/flamegraph2?f=main")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/ui/flamegraph" || resp.Request.URL.RawQuery != "f=main" {
		t.Errorf("pprof's /ui/flamegraph2 led to %s", resp.Request.URL)
	}
	if code, _ := get(t, srv, "/ui/assets/app.js"); code != http.StatusOK {
		t.Errorf("app.js: status %d", code)
	}
}

// TestMenuFromSettings checks that the menu offers every setting of
// settings.All that has a URL parameter.
func TestMenuFromSettings(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	_, body := get(t, srv, "/ui/top")
	for _, s := range settings.All() {
		if s.URLParam != "" && !strings.Contains(body, `name="`+s.URLParam+`"`) {
			t.Errorf("menu lacks setting %s (URL parameter %s)", s.Name, s.URLParam)
		}
	}
}

func TestDownload(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	code, body := get(t, srv, "/download?i=helper")
	if code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	p, err := profile.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sample) != 2 {
		t.Errorf("refined profile has %d samples, want 2 (ignore=helper drops one)", len(p.Sample))
	}
	if _, err := gzip.NewReader(strings.NewReader(body)); err != nil {
		t.Errorf("download is not gzipped: %v", err)
	}
	// The loaded profile is unchanged: the full top still has 3 rows.
	_, top := get(t, srv, "/ui/api/top")
	if n := strings.Count(top, `"flat_text"`); n != 3 {
		t.Errorf("after a filtered download, top has %d rows, want 3", n)
	}
}

func TestHostCheck(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	for host, want := range map[string]int{
		"evil.example":               http.StatusForbidden,
		"evil.example:80":            http.StatusForbidden,
		"localhost":                  http.StatusOK,
		srv.Listener.Addr().String(): http.StatusOK,
	} {
		req, _ := http.NewRequest("GET", srv.URL+"/ui/top", nil)
		req.Host = host
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: status %d, want %d", host, resp.StatusCode, want)
		}
	}
	open := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), AnyHost: true})
	req, _ := http.NewRequest("GET", open.URL+"/ui/top", nil)
	req.Host = "perf.example"
	resp, err := open.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("AnyHost: status %d", resp.StatusCode)
	}
}

func TestBadParams(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	for _, tc := range []struct{ path, want string }{
		{"/ui/top?f=(", "parsing focus regexp"},
		{"/ui/top?si=bogus", "bogus"},
		{"/ui/top?g=bogus", "bogus"},
		{"/ui/top?n=x", "URL parameter n"},
		{"/ui/peek?f=nomatch", "no matches found"},
		{"/ui/source?f=[", "parsing"},
		{"/ui/api/top?i=(", "parsing ignore regexp"},
		{"/download?tf=(", "parsing tagfocus regexp"},
		{"/ui/flamegraph?path=nosuch", `parameter path: no frame named &#34;nosuch&#34;`},
		{"/ui/api/flame?path=main.main&path=nosuch", `parameter path: no frame named "nosuch"`},
		{"/ui/sandwich?path=nosuch", `no frame named &#34;nosuch&#34;`},
		{"/ui/flamegraph?orient=sideways", "URL parameter orient"},
		{"/ui/flamegraph?maxframes=-1", "parameter maxframes"},
		{"/ui/disasm?f=(", "parsing"},
	} {
		code, body := get(t, srv, tc.path)
		if code != http.StatusBadRequest || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s: status %d, want 400 with %q\n%.300s", tc.path, code, tc.want, body)
		}
		if strings.HasPrefix(tc.path, "/ui/") && !strings.HasPrefix(tc.path, "/ui/api") && !strings.Contains(body, `id="menu"`) {
			t.Errorf("GET %s: the error page lacks the menu", tc.path)
		}
	}
	if code, _ := get(t, srv, "/ui/top"); code != http.StatusOK {
		t.Errorf("after bad requests: status %d", code)
	}
}

// TestInitialState checks that the command line's settings are the
// pages' initial URL state.
func TestInitialState(t *testing.T) {
	o := report.DefaultOptions()
	o.Focus = "main.work"
	o.Cum = true
	srv := serve(t, cpuProfile(), web.Options{Report: o})
	resp, err := srv.Client().Get(srv.URL + "/ui/top")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Request.URL.RawQuery; got != "f=main.work&sort=cum" {
		t.Errorf("redirected to ?%s, want ?f=main.work&sort=cum", got)
	}
	// Once in the URL, the user can clear the focus.
	_, body := get(t, srv, "/ui/api/top?sort=flat")
	if !strings.Contains(body, `"main.main"`) || strings.Contains(body, "focus=") {
		t.Errorf("clearing the initial focus in the URL did not unfocus:\n%s", body)
	}
}

// hostileProfile names its functions, files and labels with HTML and
// script.
func hostileProfile() *profile.Profile {
	p := cpuProfile()
	p.Function[0].Name = `<script>alert("fn")</script>`
	p.Function[1].Name = `"><img src=x onerror=alert(1)>`
	p.Function[1].Filename = `</pre><script>alert('file')</script>.go`
	p.Sample[0].Label = map[string][]string{`<b>key</b>`: {`<script>alert('label')</script>`}}
	p.Comments = []string{`<iframe src=javascript:alert(1)>`}
	return p
}

func TestHostileStringsEscaped(t *testing.T) {
	srv := serve(t, hostileProfile(), web.Options{Report: report.DefaultOptions()})
	for _, path := range []string{"/ui/top", "/ui/peek?f=.", "/ui/source?f=.", "/ui/top?f=(", "/ui/flamegraph", "/ui/graph", "/ui/sandwich?f=."} {
		_, body := get(t, srv, path)
		for _, bad := range []string{"<script>alert", "<img src=x", "<iframe", "<b>key"} {
			if strings.Contains(body, bad) {
				t.Errorf("GET %s: unescaped %q in the page", path, bad)
			}
		}
	}
	_, body := get(t, srv, "/ui/top")
	if !strings.Contains(body, "&lt;script&gt;alert(&#34;fn&#34;)&lt;/script&gt;") {
		t.Errorf("top does not show the escaped function name")
	}
}

func TestAPIJSONMatchesReport(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	_, body := get(t, srv, "/ui/api/top?f=work&sort=cum&n=2")
	o := report.DefaultOptions()
	o.Focus, o.Cum, o.NodeCount = "work", true, 2
	var want bytes.Buffer
	if err := report.GenerateJSON(&want, cpuProfile(), report.Top, o); err != nil {
		t.Fatal(err)
	}
	var got, exp report.JSONReport
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(want.Bytes(), &exp)
	g, _ := json.Marshal(got)
	e, _ := json.Marshal(exp)
	if !bytes.Equal(g, e) {
		t.Errorf("api/top:\n%s\nwant:\n%s", g, e)
	}
}

func TestGzip(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	req, _ := http.NewRequest("GET", srv.URL+"/ui/top", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	if !strings.Contains(string(b), `id="top"`) {
		t.Errorf("gzipped page lacks the table")
	}
}

// TestConcurrentRequests asks every view at once, as a browser with
// several tabs does: each answer is the one a lone request gets (run with
// -race for the shared profile and caches).
func TestConcurrentRequests(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), CacheBytes: 8 << 10}) // a few answers
	paths := []string{"/ui/top", "/ui/api/top?f=work", "/ui/peek?f=main", "/ui/flamegraph?i=helper",
		"/ui/api/flame?search=work", "/ui/sandwich?sandwich=main.work", "/ui/graph", "/download?h=main", "/ui/source?f=main"}
	want := map[string]string{}
	for _, p := range paths {
		_, want[p] = get(t, srv, p)
	}
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := paths[i%len(paths)]
			resp, err := srv.Client().Get(srv.URL + p)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if string(b) != want[p] {
				t.Errorf("%s: concurrent answer differs from the lone one", p)
			}
		}()
	}
	wg.Wait()
}

// TestSourceReadsOnlyProfileFiles serves the source view with a
// -source_path directory that also holds a file the profile does not
// name: no URL shows it, whatever its parameters say.
func TestSourceReadsOnlyProfileFiles(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nfunc main() {\n\twork()\n}\n" + strings.Repeat("\n", 5) + "// line 11\n"
	for i := 12; i <= 40; i++ {
		src += "// line\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("TOP-SECRET-CONTENT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := report.DefaultOptions()
	o.SourcePath = dir
	srv := serve(t, cpuProfile(), web.Options{Report: o})
	code, body := get(t, srv, "/ui/source?f=main.main")
	if code != http.StatusOK || !strings.Contains(body, "// line 11") {
		t.Errorf("source of main.main: status %d, no source lines", code)
	}
	for _, path := range []string{
		"/ui/source?f=secret", "/ui/source?f=.&source_path=" + dir + "&trim_path=/",
		"/ui/source?f=" + filepath.Join(dir, "secret.txt"), "/ui/assets/../secret.txt",
		"/ui/assets/..%2f..%2fsecret.txt", "/ui/flame/../../secret.txt", "/ui/source/" + dir + "/secret.txt",
	} {
		if _, body := get(t, srv, path); strings.Contains(body, "TOP-SECRET") {
			t.Errorf("%s shows a file the profile does not name", path)
		}
	}
}

// TestCarry checks Options.Carry and Options.Script: a page keeps the
// carried parameters, escaped, in its Reset link and for its scripts, and
// not the others; it loads the embedding server's script.
func TestCarry(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), Carry: []string{"query", "from"}, Script: "/ui/viewer/viewer.js"})
	code, body := get(t, srv, `/ui/top?query=%7Bservice_name%3D%22%3Cb%3E%22%7D&from=now-1h&n=2`)
	if code != http.StatusOK {
		t.Fatalf("GET /ui/top = %d:\n%s", code, body)
	}
	carried := `from=now-1h&amp;query=%7Bservice_name%3D%22%3Cb%3E%22%7D`
	for _, want := range []string{`<a id="reset" href="/ui/top?` + carried + `">`, `data-carry="` + carried + `"`, `<script type="module" src="/ui/viewer/viewer.js">`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %s:\n%s", want, body)
		}
	}
	if _, body := get(t, serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()}), "/ui/top?query=x"); !strings.Contains(body, `<a id="reset" href="/ui/top?">`) || strings.Contains(body, "viewer.js") {
		t.Errorf("a page without Carry keeps query in its Reset link or loads a script:\n%s", body)
	}
}
