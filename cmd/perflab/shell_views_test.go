package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
)

// TestShellWebAndSVG drives the shell's graph commands: web serves the
// viewer and prints the URL of its call graph with the focus asked for,
// svg draws that graph (to a file, or to profile001.svg as pprof's shell
// does), png says why not.
func TestShellWebAndSVG(t *testing.T) {
	fns := []*profile.Function{{ID: 1, Name: "main.main"}, {ID: 2, Name: "main.parse"}, {ID: 3, Name: "runtime.mallocgc"}}
	var locs []*profile.Location
	for i, fn := range fns {
		locs = append(locs, &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 * (i + 1)), Line: []profile.Line{{Function: fn, Line: 3}}})
	}
	prof := writeTestProfile(t, &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locs[1], locs[0]}, Value: []int64{3, 30000000}},
			{Location: []*profile.Location{locs[2], locs[0]}, Value: []int64{1, 10000000}},
		},
		Location: locs, Function: fns,
	}, "cpu.pb.gz")
	dir := t.TempDir()
	t.Chdir(dir)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, inR, outW, &stderr, []string{"shell", prof}); outW.Close() }()
	graphURL := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/ui/graph\?\S*`)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if u := graphURL.FindString(sc.Text()); u != "" {
				found <- u
			}
		}
		close(found)
	}()
	defer inW.Close() // the end of input ends the shell, if the test fails first
	go io.WriteString(inW, "web main.parse\n")
	var u string
	select {
	case u = <-found:
	case <-time.After(20 * time.Second):
	}
	if u == "" {
		t.Fatalf("web printed no URL of the graph; stderr %q", stderr.String())
	}
	pu, _ := url.Parse(u)
	if f := pu.Query().Get("f"); f != "main.parse" {
		t.Errorf("the graph's URL %s focuses on %q, want main.parse", u, f)
	}
	page := get(t, u)
	served := reporttest.SVGNodeNames(t, get(t, pu.Scheme+"://"+pu.Host+"/ui/api/graph.svg?"+pu.RawQuery))
	if !strings.Contains(string(page), "Graph") || !slices.Contains(served, "main.parse") || slices.Contains(served, "runtime.mallocgc") {
		t.Errorf("the viewer's graph at %s has nodes %q; want main.parse and not runtime.mallocgc", u, served)
	}
	drawn := filepath.Join(dir, "graph.svg")
	go io.WriteString(inW, "svg main.parse >"+drawn+"\nsvg\npng\nquit\n")
	if err := <-done; err != nil {
		t.Fatalf("shell: %v", err)
	}
	b, err := os.ReadFile(drawn)
	if err != nil || !slices.Equal(reporttest.SVGNodeNames(t, b), served) {
		t.Errorf("svg >file drew nodes %q (%v); want the viewer's %q", reporttest.SVGNodeNames(t, b), err, served)
	}
	b, err = os.ReadFile(filepath.Join(dir, "profile001.svg"))
	if err != nil || !slices.Contains(reporttest.SVGNodeNames(t, b), "runtime.mallocgc") {
		t.Errorf("svg without a file: %v; want the whole graph in profile001.svg", err)
	}
	for _, want := range []string{
		"Serving web UI on http://127.0.0.1:",
		"Generating report in " + drawn + "\n",
		"Generating report in profile001.svg\n",
		"png: perflab draws graphs as SVG, without Graphviz: use svg, or web\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// get fetches u and returns its body, failing t unless the status is 200.
func get(t *testing.T, u string) []byte {
	t.Helper()
	code, b := httpGet(t, u)
	if code != http.StatusOK {
		t.Fatalf("GET %s: status %d %s", u, code, b)
	}
	return b
}
