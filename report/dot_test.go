package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/graph"
)

// TestCallGraphMatchesDot builds the model and the DOT text of the same
// profile and wants the same nodes, tags and edges in both, with the
// values and flags the DOT shows.
func TestCallGraphMatchesDot(t *testing.T) {
	for _, o := range []Options{DefaultOptions(), withSampleIndex("delay"), withGranularity("lines")} {
		var dot bytes.Buffer
		if err := Generate(&dot, seedProfile(), Dot, o); err != nil {
			t.Fatal(err)
		}
		g, err := CallGraph(seedProfile(), o)
		if err != nil {
			t.Fatal(err)
		}
		nodes := regexp.MustCompile(`(?m)^(N+\d+(?:_\d+)*) \[label ?= ?"`).FindAllStringSubmatch(dot.String(), -1)
		if len(nodes) != len(g.Nodes) || len(nodes) < 3 {
			t.Fatalf("DOT has %d nodes, model %d:\n%s", len(nodes), len(g.Nodes), dot.String())
		}
		tags := 0
		for i, m := range nodes {
			n := g.Nodes[i]
			if n.ID != m[1] {
				t.Errorf("node %d: model %s, DOT %s", i, n.ID, m[1])
			}
			if n.Kind == graph.Tag {
				tags++
				if n.Parent < 0 || g.Nodes[n.Parent].Kind != graph.Function {
					t.Errorf("tag %s has parent %d", n.ID, n.Parent)
				}
			}
		}
		if tags == 0 {
			t.Errorf("no tag nodelets (the profile has labels):\n%s", dot.String())
		}
		edges := regexp.MustCompile(`(?m)^N+\d+(?:_\d+)* -> `).FindAllString(dot.String(), -1)
		if len(edges) != len(g.Edges) {
			t.Errorf("DOT has %d edges, model %d", len(edges), len(g.Edges))
		}
		if !strings.Contains(dot.String(), `style="dotted"`) != !hasDotted(g) {
			t.Errorf("dotted edges differ between DOT and model")
		}
		if len(g.Legend) < 3 || g.Legend[0] != "File: prog" || g.Title != "prog" {
			t.Errorf("legend %q title %q", g.Legend, g.Title)
		}
	}
}

func hasDotted(g *graph.Graph) bool {
	for _, e := range g.Edges {
		if e.Dotted {
			return true
		}
	}
	return false
}

func withSampleIndex(si string) Options {
	o := DefaultOptions()
	o.SampleIndex = si
	return o
}

func withGranularity(g string) Options {
	o := DefaultOptions()
	o.Granularity = g
	return o
}

// TestCallGraphDiffColors checks that a node whose value shrank is green
// and one that grew red, as in pprof's diff graphs.
func TestCallGraphDiffColors(t *testing.T) {
	p := seedProfile()
	// main.helper shrank; main.work, through its own line, grew.
	p.Sample = append(p.Sample,
		&profile.Sample{Location: []*profile.Location{p.Location[1], p.Location[0]}, Value: []int64{-20, -9000}},
		&profile.Sample{Location: []*profile.Location{p.Location[2], p.Location[0]}, Value: []int64{5, 20000}})
	g, err := CallGraph(p, withSampleIndex("delay"))
	if err != nil {
		t.Fatal(err)
	}
	var green, red bool
	for _, n := range g.Nodes {
		if n.Kind != graph.Function {
			continue
		}
		c := n.Color
		r, gg := c[1:3], c[3:5]
		switch {
		case n.Cum < 0 && gg > r:
			green = true
		case n.Cum > 0 && r > gg:
			red = true
		}
	}
	if !green || !red {
		for _, n := range g.Nodes {
			t.Logf("%s cum %d color %s", n.Name, n.Cum, n.Color)
		}
		t.Errorf("want a green (shrank) and a red (grew) node")
	}
}

// FuzzCallGraph decodes arbitrary bytes as a profile, builds its call
// graph and draws it: no panic, well-formed SVG.
func FuzzCallGraph(f *testing.F) {
	var buf bytes.Buffer
	if err := seedProfile().Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes(), "lines", 5)
	f.Add([]byte("heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3: 4] @ 0x1 0x2\n"), "", 80)
	f.Fuzz(func(t *testing.T, data []byte, gran string, count int) {
		p, err := profile.ParseData(data)
		if err != nil || p.CheckValid() != nil || len(p.Sample) > 2000 {
			return
		}
		o := DefaultOptions()
		o.Granularity, o.NodeCount = gran, count%200
		g, err := CallGraph(p, o)
		if err != nil {
			return
		}
		var svg bytes.Buffer
		if err := graph.WriteSVG(&svg, g); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&svg)
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("SVG is not well-formed: %v", err)
			}
		}
	})
}
