package report

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// TestCallGraphPathsAgree checks that the call graph's fast paths give
// the graph of its plain one, which reads every sample's frames for the
// edges and tags of each rebuild (the path the conformance suite checks
// against pprof when the graph keeps every node): the kept stacks, their
// edges summed in matrices or in edge tables, and their tags summed in a
// dense table or in a map. The profile has labels, byte sizes and, in a
// second version, negative values (as a -base profile has), and the
// scans run in one goroutine and in several.
func TestCallGraphPathsAgree(t *testing.T) {
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	addBytes(p)
	neg := p.Copy()
	for i, s := range neg.Sample {
		if i%3 == 0 {
			for j := range s.Value {
				s.Value[j] = -s.Value[j]
			}
		}
	}
	hot := p.Sample[0].Location[0].Line[0].Function.Name
	cases := []func(*Options){
		func(o *Options) {},
		func(o *Options) { o.NodeCount = 30 },
		func(o *Options) { o.NodeCount = 0 },
		func(o *Options) { o.Focus, o.NodeCount = hot, 20 },
		func(o *Options) { o.Hide, o.Granularity = "runtime", "lines" },
		func(o *Options) { o.NodeFraction, o.EdgeFraction = 0.001, 0 },
		func(o *Options) { o.NodeFraction, o.EdgeFraction, o.NodeCount = 0.02, 0.01, 0 },
		func(o *Options) { o.Mean, o.NodeCount = true, 40 },
		func(o *Options) { o.TagFocus = "bytes=1kb:" },
		func(o *Options) { o.Granularity = "addresses" },
	}
	type path struct {
		name                       string
		keptNodes, matrix, tagCell int
	}
	paths := []path{
		{"kept stacks, matrices, tag table", maxKeptNodes, maxMatrixBytes, maxTagCells},
		{"kept stacks, edge tables, tag map", maxKeptNodes, 0, 0},
	}
	plain := path{"frames", 0, maxMatrixBytes, maxTagCells}
	defer func(p path, m int) {
		maxKeptNodes, maxMatrixBytes, maxTagCells, parallelMin = p.keptNodes, p.matrix, p.tagCell, m
	}(paths[0], parallelMin)
	graph := func(pr *profile.Profile, o Options, pa path, min int) []byte {
		maxKeptNodes, maxMatrixBytes, maxTagCells, parallelMin = pa.keptNodes, pa.matrix, pa.tagCell, min
		var b bytes.Buffer
		if err := Generate(&b, pr, Dot, o); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	setProcs(t, 2)
	for _, pr := range []*profile.Profile{p, neg} {
		for i, c := range cases {
			o := DefaultOptions()
			c(&o)
			want := graph(pr, o, plain, 1<<30)
			if i == 0 && !bytes.Contains(want, []byte("box3d")) {
				t.Fatalf("no tag nodelets in the default graph: the tags are not checked")
			}
			for _, pa := range paths {
				for _, min := range []int{1 << 30, 1} {
					if got := graph(pr, o, pa, min); !bytes.Equal(got, want) {
						t.Errorf("%+v: %s (parallelMin %d) differs from the frames' graph", o, pa.name, min)
					}
				}
			}
		}
	}
}

// addBytes gives some of p's samples byte sizes, some two: more sizes
// than a node shows, so that they are grouped by value, and sizes that
// print alike (1024, 1025 and 1026 bytes are all "1kB"), so that tags
// sum several sets.
func addBytes(p *profile.Profile) {
	sizes := []int64{8, 16, 1025, 4096, 1024, 70000, 1026, 3 << 20}
	for i, s := range p.Sample {
		if i%4 != 0 {
			continue
		}
		s.NumLabel = map[string][]int64{"bytes": {sizes[(i/4)%len(sizes)]}}
		if i%8 == 0 {
			s.NumLabel["bytes"] = append(s.NumLabel["bytes"], sizes[(i/8+2)%len(sizes)])
		}
	}
}
