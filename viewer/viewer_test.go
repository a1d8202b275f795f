package viewer_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
	"github.com/perflab/perflab/viewer"
	"github.com/perflab/perflab/web"
)

// counting is a store.Reader that counts its merges.
type counting struct {
	store.Reader
	merges atomic.Int64
}

func (c *counting) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	c.merges.Add(1)
	return c.Reader.Merge(ctx, sel)
}

// fixture returns a reference store of storetest.Fixture, counting its
// merges.
func fixture(t testing.TB) *counting {
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(context.Background(), storetest.Fixture()...); err != nil {
		t.Fatal(err)
	}
	return &counting{Reader: ref}
}

// serve serves a viewer of r at the time *now until the test ends.
func serve(t testing.TB, r store.Reader, o viewer.Options) string {
	ts := httptest.NewServer(viewer.New(r, o))
	t.Cleanup(ts.Close)
	return ts.URL
}

func get(t testing.TB, base, path string) (int, string) {
	t.Helper()
	return testprog.Get(t, base+path)
}

var topTable = regexp.MustCompile(`(?s)<table id="top".*?</table>`)

// topOf returns perflab web's top table of p, the oracle of the viewer's.
func topOf(t *testing.T, p *profile.Profile) string {
	s, err := web.New(p, web.Options{Report: report.DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "http://127.0.0.1/ui/top?n=1000", nil))
	return topTable.FindString(rec.Body.String())
}

var (
	from  = storetest.Epoch.Format(time.RFC3339)
	until = storetest.Epoch.Add(time.Hour).Format(time.RFC3339)
	db    = `{service_name="db"}`
)

// TestViewsOfSelection checks that a view of a selection is perflab
// web's view of the selection's merged profile, and that the page keeps
// the selection in its links.
func TestViewsOfSelection(t *testing.T) {
	r := fixture(t)
	u := serve(t, r, viewer.Options{})
	q := url.Values{"query": {db}, "from": {from}, "until": {until}, "n": {"1000"}}
	code, body := get(t, u, "/ui/top?"+q.Encode())
	if code != http.StatusOK {
		t.Fatalf("GET /ui/top = %d:\n%s", code, body)
	}
	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(db)
	p, err := r.Reader.Merge(context.Background(), store.Selection{Type: cpu.Type, Selector: sel, Start: storetest.Epoch, End: storetest.Epoch.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := topTable.FindString(body), topOf(t, p); got == "" || got != want {
		t.Errorf("the viewer's top of %s differs from perflab web's top of its merged profile:\n%s\nwant:\n%s", db, got, want)
	}
	carry := `href="/ui/top?` + template(url.Values{"from": {from}, "query": {db}, "until": {until}}.Encode()) + `"`
	if !strings.Contains(body, carry) || !strings.Contains(body, `src="/ui/viewer/viewer.js"`) {
		t.Errorf("the page's Reset link does not keep the selection (%s), or the page does not load the viewer's script", carry)
	}
	code, body = get(t, u, "/download?"+q.Encode())
	dl, err := profile.Parse(strings.NewReader(body))
	if code != http.StatusOK || err != nil || len(dl.Sample) != len(p.Sample) {
		t.Errorf("GET /download = %d, %v, want the merged profile's %d samples", code, err, len(p.Sample))
	}
}

// template escapes s as html/template writes a URL's query in an
// attribute.
func template(s string) string { return strings.ReplaceAll(s, "&", "&amp;") }

// TestStatus checks the answers to bad parameters (400 with the reason,
// in the page with the selection bar), to selections of nothing (404),
// and to a stored profile by ID.
func TestStatus(t *testing.T) {
	r := fixture(t)
	u := serve(t, r, viewer.Options{Now: func() time.Time { return storetest.Epoch.Add(3 * time.Hour) }})
	infos, err := r.Profiles(context.Background(), store.Selection{}, 1)
	if err != nil || len(infos) == 0 {
		t.Fatal(infos, err)
	}
	for _, c := range []struct {
		path string
		code int
		want string
	}{
		{"/ui/top?type=nosuch", 400, "type"},
		{"/ui/top?from=yesterday", 400, `time &#34;yesterday&#34;`},
		{"/ui/top?query=" + url.QueryEscape(`{service_name=`), 400, "selector"},
		{"/ui/top?from=" + until + "&until=" + from, 400, "is not before until"},
		{"/ui/top?si=nosuch&from=0", 400, "nosuch"},
		{"/ui/top?query=" + url.QueryEscape(`{service_name="none"}`) + "&from=0", 404, "no profile in"},
		{"/ui/top", 404, "no profile in"}, // the last hour holds none
		{"/ui/api/top?from=0&query=" + url.QueryEscape(`{service_name="none"}`), 404, "no profile in"},
		{"/ui/top?id=nosuch", 404, "no profile with ID"},
		{"/ui/top?from=0&base_from=1&base_until=2", 404, "no profile in the base"},
		{"/ui/top?id=" + infos[0].ID, 200, "<table id=\"top\""},
		{"/ui/flamegraph?from=0", 200, `id="flame-data"`},
		{"/ui/sandwich?from=0", 200, `id="flame-data"`},
		{"/ui/graph?from=0", 200, `<svg`},
		{"/ui/peek?from=0&f=.", 200, `class="peek"`},
		{"/ui/source?from=0&f=.", 200, `src="/ui/viewer/viewer.js"`},
		{"/", 200, `src="/ui/viewer/viewer.js"`},
		{"/?from=soon", 400, "soon"},
		{"/ui/viewer/viewer.js", 200, "setSelect"},
		{"/ui/viewer/chart/uPlot.iife.min.js", 200, "uPlot"},
		{"/ui/assets/app.js", 200, "regexpQuote"},
	} {
		code, body := get(t, u, c.path)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("GET %s = %d, want %d with %q:\n%.600s", c.path, code, c.code, c.want, body)
		}
		if code == 400 && strings.HasPrefix(c.path, "/ui/top") && !strings.Contains(body, "viewer.js") {
			t.Errorf("GET %s = 400 without the selection bar", c.path)
		}
	}
}

// TestEscapes checks that a label value and a parameter that are markup
// are shown escaped in the views, in their titles and in the errors.
func TestEscapes(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	p := storetest.Fixture()[0]
	hostile := `"><script>alert(1)</script>`
	p.Labels = p.Labels.With("service_name", hostile)
	if err := ref.Write(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	u := serve(t, ref, viewer.Options{})
	m, _ := store.NewMatcher(store.LabelService, store.MatchEqual, hostile)
	sel := url.QueryEscape(store.Selector{m}.String())
	for _, path := range []string{
		"/ui/top?from=0&query=" + sel,                              // the title
		"/ui/flamegraph?from=0&query=" + sel,                       // the title and the carried parameters
		"/ui/top?from=0&until=1&query=" + sel,                      // the error: nothing in range
		"/ui/top?from=" + url.QueryEscape(hostile),                 // a bad parameter
		"/?from=0&query=" + sel + "&x=" + url.QueryEscape(hostile), // the viewer's page
	} {
		code, body := get(t, u, path)
		if code >= 500 || strings.Contains(body, "<script>alert") {
			t.Errorf("GET %s = %d, the markup unescaped:\n%s", path, code, body)
		}
	}
}

// TestRelativeRange checks that a relative range stays relative, is
// resolved per request, and that the requests of one step share a merge.
func TestRelativeRange(t *testing.T) {
	r := fixture(t)
	now := storetest.Epoch.Add(90 * time.Minute)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	u := serve(t, r, viewer.Options{Now: func() time.Time { return *clock.Load() }})
	path := "/ui/top?from=now-1h"
	for i, c := range []struct {
		at     time.Duration // after now
		merges int64
	}{{0, 1}, {time.Second, 1}, {viewer.Step(time.Hour) - time.Second, 1}, {viewer.Step(time.Hour), 2}, {viewer.Step(time.Hour) + time.Second, 2}} {
		t1 := now.Add(c.at)
		clock.Store(&t1)
		if code, body := get(t, u, path); code != http.StatusOK {
			t.Fatalf("GET %s = %d:\n%s", path, code, body)
		}
		if got := r.merges.Load(); got != c.merges {
			t.Errorf("request %d, %v after the first: %d merges, want %d", i, c.at, got, c.merges)
		}
	}
}

// TestCacheBound checks that the views kept stay within the cache's
// bound: with room for four, a fifth selection evicts the least recently
// used one, which is merged again when it comes back.
func TestCacheBound(t *testing.T) {
	r := fixture(t)
	cpu, _ := store.LookupKind("cpu")
	p, err := r.Reader.Merge(context.Background(), store.Selection{Type: cpu.Type})
	if err != nil {
		t.Fatal(err)
	}
	// Each view counts its profile and 16 MB of rendered answers; the
	// five selections hold the same profiles (absolute ranges are not
	// aligned: each is a selection of its own).
	u := serve(t, r, viewer.Options{CacheBytes: 4 * (16<<20 + viewer.ProfileBytes(p))})
	for i, c := range []struct {
		from   string
		merges int64
	}{{"0", 1}, {"1", 2}, {"2", 3}, {"3", 4}, {"0", 4}, {"4", 5}, {"1", 6}, {"0", 6}, {"2", 7}} {
		path := "/ui/top?from=" + c.from
		if code, _ := get(t, u, path); code != http.StatusOK {
			t.Fatalf("GET %s = %d", path, code)
		}
		if got := r.merges.Load(); got != c.merges {
			t.Errorf("request %d, GET %s: %d merges in all, want %d", i, path, got, c.merges)
		}
	}
}

// TestDiff checks that a second selection is the diff base: the views
// are those of perflab web over pprof's -diff_base of the two.
func TestDiff(t *testing.T) {
	r := fixture(t)
	u := serve(t, r, viewer.Options{})
	mid := storetest.Epoch.Add(time.Hour).Format(time.RFC3339)
	q := url.Values{"query": {db}, "from": {mid}, "until": {storetest.Epoch.Add(2 * time.Hour).Format(time.RFC3339)},
		"base_from": {from}, "base_until": {mid}, "n": {"1000"}}
	code, body := get(t, u, "/ui/top?"+q.Encode())
	if code != http.StatusOK || !strings.Contains(body, `data-diff="true"`) {
		t.Fatalf("GET /ui/top of a comparison = %d, want a diff:\n%.800s", code, body)
	}
	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(db)
	merge := func(a, b time.Duration) *profile.Profile {
		p, err := r.Reader.Merge(context.Background(), store.Selection{Type: cpu.Type, Selector: sel, Start: storetest.Epoch.Add(a), End: storetest.Epoch.Add(b)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	want, err := profiles.ApplyBase(merge(time.Hour, 2*time.Hour), merge(0, time.Hour), true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := topTable.FindString(body), topOf(t, want); got == "" || got != want {
		t.Errorf("the viewer's diff differs from perflab web's top of -diff_base:\n%s\nwant:\n%s", got, want)
	}
}
