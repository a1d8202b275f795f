package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

// uploadBase posts the file at path to a perflab web server's base
// endpoint and returns the base's ID.
func uploadBase(t *testing.T, server, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(server+"/ui/api/base?name=cpu2.pb.gz", "application/octet-stream", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var b struct{ ID, Name string }
	if resp.StatusCode != 200 || json.Unmarshal(body, &b) != nil || b.ID == "" {
		t.Fatalf("upload: status %d: %s", resp.StatusCode, body)
	}
	return b.ID
}

// TestWebUploadedBaseMatchesDiffBase checks that a base uploaded to
// "perflab web NEW" gives the views "-diff_base=BASE NEW" gives: the top
// rows of "perflab top -diff_base" and the flame graph of "perflab web
// -diff_base", for real CPU profiles of a real program.
func TestWebUploadedBaseMatchesDiffBase(t *testing.T) {
	profs := reporttest.Generate(t)
	cur, old := profs.Path("cpu.pb.gz"), profs.Path("cpu2.pb.gz")
	server := startWeb(t, cur)
	withFlag := startWeb(t, "-diff_base="+old, cur)
	id := uploadBase(t, server, old)
	if again := uploadBase(t, server, old); again != id {
		t.Errorf("the same file uploaded twice got IDs %s and %s", id, again)
	}
	for _, flags := range [][]string{nil, {"-cum", "-nodecount=8"}, {"-sample_index=samples"}} {
		args := append(append([]string{"top", "-json", "-diff_base=" + old}, flags...), cur)
		var want bytes.Buffer
		if err := run(context.Background(), strings.NewReader(""), &want, io.Discard, args); err != nil {
			t.Fatalf("perflab %v: %v", args, err)
		}
		q := flagsToURL(t, flags)
		code, got := httpGet(t, server+"/ui/api/top?base="+id+"&"+q)
		if code != 200 || !jsonEqual(t, got, want.Bytes()) {
			t.Errorf("/ui/api/top?base=%s&%s (status %d) differs from perflab %v:\n%s\nwant\n%s", id, q, code, args, got, want.Bytes())
		}
		_, plain := httpGet(t, server+"/ui/api/top?"+q)
		if jsonEqual(t, plain, want.Bytes()) {
			t.Errorf("/ui/api/top?%s without the base equals the diff: the test cannot tell them apart", q)
		}
	}
	for _, fq := range []string{"", "reverse=1", "normalize=1", "reverse=1&normalize=1&si=samples"} {
		code, got := httpGet(t, server+"/ui/api/flame?base="+id+"&"+fq)
		wcode, want := httpGet(t, withFlag+"/ui/api/flame?"+fq)
		if code != 200 || wcode != 200 || !bytes.Equal(got, want) {
			t.Errorf("/ui/api/flame?%s: with the uploaded base (status %d) differs from -diff_base (status %d)", fq, code, wcode)
		}
		if !bytes.Contains(got, []byte(`"diff":true`)) {
			t.Errorf("/ui/api/flame?base=%s&%s is not a diff: %.200s", id, fq, got)
		}
	}
	checkBuildDiff(t, server+"/ui/api/flame?base="+id, cur, old)
	code, page := httpGet(t, server+"/ui/flamegraph?base="+id)
	if code != 200 || !bytes.Contains(page, []byte(`data-diff="true"`)) {
		t.Errorf("/ui/flamegraph?base=%s: status %d, not a diff page", id, code)
	}
}

// checkBuildDiff checks the root of the flame graph at u against
// flame.BuildDiff of the same two files.
func checkBuildDiff(t *testing.T, u, cur, old string) {
	t.Helper()
	load := func(path string) *profile.Profile {
		p, err := profiles.Load(context.Background(), []string{path}, profiles.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tree, err := flame.BuildDiff(load(cur), load(old), rpt.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want, err := tree.View(flame.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if want.RootValue == 0 || want.RootBase == 0 || want.RootValue == want.RootBase {
		t.Fatalf("the two profiles do not differ: root %d, base %d", want.RootValue, want.RootBase)
	}
	_, body := httpGet(t, u)
	var got struct {
		Total, RootValue, RootBase int64
		Diff                       bool
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	if got.RootValue != want.RootValue || got.RootBase != want.RootBase || got.Total != want.Total || !got.Diff {
		t.Errorf("%s: root %d, base %d, total %d, diff %v; flame.BuildDiff: root %d, base %d, total %d",
			u, got.RootValue, got.RootBase, got.Total, got.Diff, want.RootValue, want.RootBase, want.Total)
	}
}
