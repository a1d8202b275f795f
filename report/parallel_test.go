package report

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
)

// TestParallelScansMatchSequential checks that splitting the sample scans
// between goroutines, as large profiles are, changes no report. The
// sequential scans are the ones the conformance suite checks against pprof.
func TestParallelScansMatchSequential(t *testing.T) {
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	hot := p.Sample[0].Location[0].Line[0].Function.Name
	cases := []struct {
		k Kind
		o func(*Options)
	}{
		{Top, func(o *Options) {}},
		{Top, func(o *Options) { o.Cum, o.NodeCount = true, 15 }},
		{Top, func(o *Options) { o.Granularity, o.NoInlines = "lines", true }},
		{Tree, func(o *Options) {}},
		{Tree, func(o *Options) { o.NodeFraction, o.EdgeFraction = 0, 0 }},
		{Peek, func(o *Options) { o.Symbol = hot }},
		{Traces, func(o *Options) {}},
		{Traces, func(o *Options) { o.Hide = "runtime" }},
		{Top, func(o *Options) { o.Show, o.Ignore = hot, "runtime" }},
		{Tree, func(o *Options) { o.ShowFrom = hot }},
		{Dot, func(o *Options) {}},
		{Dot, func(o *Options) { o.NodeCount = 30 }},
		{Dot, func(o *Options) { o.Focus, o.NodeCount = hot, 20 }},
		{Dot, func(o *Options) { o.Hide, o.Granularity = "runtime", "lines" }},
		{Dot, func(o *Options) { o.NodeFraction, o.EdgeFraction, o.NodeCount = 0, 0, 0 }},
	}
	defer func(m int) { parallelMin = m }(parallelMin)
	for _, c := range cases {
		o := DefaultOptions()
		c.o(&o)
		var seq, par bytes.Buffer
		parallelMin = 1 << 30
		if err := Generate(&seq, p.Copy(), c.k, o); err != nil {
			t.Fatal(err)
		}
		parallelMin = 1
		for _, workers := range []int{2, 3} {
			par.Reset()
			setProcs(t, workers)
			if err := Generate(&par, p.Copy(), c.k, o); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(seq.Bytes(), par.Bytes()) {
				t.Errorf("%s %+v with %d workers differs from the sequential scan", c.k, o, workers)
			}
		}
	}
}

func setProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}
