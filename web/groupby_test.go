package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// topJSON returns report.GenerateJSON(Top) of cpuProfile under o, in the
// form /ui/api/top's answers are compared in.
func topJSON(t *testing.T, body []byte) string {
	t.Helper()
	var r report.JSONReport
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// TestGroupByLabelURL checks tagroot and tagleaf through the URL: top's
// rows are report's for the same options, the flame graph has a frame per
// label value, the menu's "group by label" select shows the setting, and
// the loaded profile is left as it was.
func TestGroupByLabelURL(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	for _, c := range []struct {
		query             string
		root, leaf, focus string
	}{{"tagroot=worker", "worker", "", ""}, {"tagleaf=worker", "", "worker", ""}, {"tagroot=worker&f=work", "worker", "", "work"}} {
		code, body := get(t, srv, "/ui/api/top?"+c.query)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", c.query, code, body)
		}
		o := report.DefaultOptions()
		o.TagRoot, o.TagLeaf, o.Focus = c.root, c.leaf, c.focus
		var want bytes.Buffer
		if err := report.GenerateJSON(&want, cpuProfile(), report.Top, o); err != nil {
			t.Fatal(err)
		}
		if got, exp := topJSON(t, []byte(body)), topJSON(t, want.Bytes()); got != exp {
			t.Errorf("api/top?%s:\n%s\nwant:\n%s", c.query, got, exp)
		}
		if !strings.Contains(body, `"w1"`) {
			t.Errorf("api/top?%s has no row for the label value w1: %s", c.query, body)
		}
	}
	_, flame := get(t, srv, "/ui/api/flame?tagroot=worker")
	if !strings.Contains(flame, `"w1"`) {
		t.Errorf("flame graph grouped by worker has no frame w1: %s", flame)
	}
	if _, plain := get(t, srv, "/ui/api/flame"); strings.Contains(plain, `"w1"`) {
		t.Errorf("flame graph without tagroot has a frame w1")
	}
	_, page := get(t, srv, "/ui/flamegraph?tagroot=worker")
	if !strings.Contains(page, `<select name="tagroot">`) || !strings.Contains(page, `<option value="worker" selected>`) {
		t.Errorf("menu lacks the group-by-label select with worker selected")
	}
	// The loaded profile is unchanged: the plain top is report's.
	_, top := get(t, srv, "/ui/api/top")
	var want bytes.Buffer
	report.GenerateJSON(&want, cpuProfile(), report.Top, report.DefaultOptions())
	if got, exp := topJSON(t, []byte(top)), topJSON(t, want.Bytes()); got != exp {
		t.Errorf("after tagroot requests, api/top:\n%s\nwant:\n%s", got, exp)
	}
}

// TestTagShowHideURL checks pprof's ts and th parameters: the call
// graph's tag nodes show the label unless th hides it or ts keeps only
// other keys, and the menu keeps the values.
func TestTagShowHideURL(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	for query, want := range map[string]bool{"": true, "th=worker": false, "ts=other": false, "ts=work": true} {
		code, svg := get(t, srv, "/ui/api/graph.svg?"+query)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", query, code, svg)
		}
		if got := strings.Contains(svg, "w1"); got != want {
			t.Errorf("graph?%s shows label w1: %v, want %v", query, got, want)
		}
	}
	_, page := get(t, srv, "/ui/top?th=worker")
	if !strings.Contains(page, `name="th" value="worker"`) {
		t.Errorf("menu does not keep th=worker")
	}
	if code, _ := get(t, srv, "/ui/top?ts=("); code != http.StatusBadRequest {
		t.Errorf("ts=( : status %d, want 400", code)
	}
}
