package web_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// TestSandwichDiff serves a real CPU profile compared with a shorter one
// (-diff_base): the sandwich view's table holds, for each function, what
// top with the same base shows, its change, and its values are shown as a
// share of the same total.
func TestSandwichDiff(t *testing.T) {
	pr := reporttest.Generate(t)
	p := reporttest.ReadProfile(t, pr.Path("cpu.pb.gz"))
	base := reporttest.ReadProfile(t, pr.Path("cpu2.pb.gz"))
	merged, err := profiles.ApplyBase(p, base, true)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, merged, web.Options{Report: report.DefaultOptions()})
	_, js := get(t, srv, "/ui/api/top?si=cpu&nf=0&n=0")
	var top report.JSONReport
	if err := json.Unmarshal([]byte(js), &top); err != nil {
		t.Fatal(err)
	}
	flat, cum := map[string]int64{}, map[string]int64{}
	for _, n := range top.Nodes {
		flat[n.Name], cum[n.Name] = n.Flat, n.Cum
	}
	_, page := get(t, srv, "/ui/sandwich?si=cpu")
	rows := regexp.MustCompile(`<tr[^>]*><td data-v="(-?\d+)">[^<]*</td><td data-v="(-?\d+)">[^<]*</td><td class="fn" data-name="([^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(rows) < 5 {
		t.Fatalf("%d rows in the sandwich table:\n%.2000s", len(rows), page)
	}
	checked := 0
	for _, r := range rows {
		self, _ := strconv.ParseInt(r[1], 10, 64)
		total, _ := strconv.ParseInt(r[2], 10, 64)
		c, ok := cum[r[3]]
		if !ok {
			continue // a function top cut
		}
		checked++
		if self != flat[r[3]] || total != c {
			t.Errorf("%s: the sandwich shows self %d, total %d; top with the same base %d, %d", r[3], self, total, flat[r[3]], c)
		}
	}
	if checked < 5 {
		t.Errorf("only %d rows are functions of top's", checked)
	}
	_, view := get(t, srv, "/ui/api/flame?si=cpu")
	var v struct{ Total int64 }
	if err := json.Unmarshal([]byte(view), &v); err != nil || v.Total != top.Total {
		t.Errorf("the table's percentages are of %d, top's of %d (%v)", v.Total, top.Total, err)
	}
}
