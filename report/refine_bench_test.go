package report_test

import (
	"io"
	"testing"

	"github.com/perflab/perflab/report"
)

// BenchmarkRefine times the reports a viewer recomputes on a new
// refinement (a focus or hide it has not seen): top, peek and the call
// graph with filters. The loaded profile is reused as is: reports leave
// it unchanged, filters included. PERFLAB_BENCH_FULL=1 runs them on the
// 500k-sample profile.
func BenchmarkRefine(b *testing.B) {
	p := loadBench(b)
	for _, bc := range []struct {
		name string
		k    report.Kind
		o    func(*report.Options)
	}{
		{"top-focus", report.Top, func(o *report.Options) { o.Focus, o.NodeCount = "Compute", 80 }},
		{"top-hide", report.Top, func(o *report.Options) { o.Hide, o.NodeCount = "Render", 80 }},
		{"peek-focus", report.Peek, func(o *report.Options) { o.Focus, o.Symbol = "Compute", "Compute" }},
		{"graph", report.Dot, func(o *report.Options) {}},
		{"graph-focus", report.Dot, func(o *report.Options) { o.Focus = "Compute" }},
		{"graph-hide", report.Dot, func(o *report.Options) { o.Hide = "Render" }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			o := report.DefaultOptions()
			bc.o(&o)
			for b.Loop() {
				if err := report.Generate(io.Discard, p, bc.k, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
