package report_test

import (
	"io"
	"testing"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/report"
)

// BenchmarkCallGraph builds pprof's -dot graph of the benchmark profile
// (80 nodes, pprof's default) and lays it out.
func BenchmarkCallGraph(b *testing.B) {
	for _, n := range []int{80, 1000} {
		b.Run(map[int]string{80: "nodecount=80", 1000: "nodecount=1000"}[n], func(b *testing.B) {
			p := loadBench(b)
			o := report.DefaultOptions()
			o.NodeCount = n
			b.ReportAllocs()
			for b.Loop() {
				g, err := report.CallGraph(p.Copy(), o)
				if err != nil {
					b.Fatal(err)
				}
				if err := graph.WriteSVG(io.Discard, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLayout lays out the graph alone.
func BenchmarkLayout(b *testing.B) {
	for _, n := range []int{80, 1000} {
		b.Run(map[int]string{80: "nodecount=80", 1000: "nodecount=1000"}[n], func(b *testing.B) {
			o := report.DefaultOptions()
			o.NodeCount = n
			g, err := report.CallGraph(loadBench(b), o)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
			b.ReportMetric(float64(len(g.Edges)), "edges")
			for b.Loop() {
				graph.Layout(g)
			}
		})
	}
}
