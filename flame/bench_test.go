package flame_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
)

// benchProfile loads the 500,000-sample benchmark profile (profgen.Default,
// generated on first use); PERFLAB_BENCH_SMALL=1 uses a tenth of it.
func benchProfile(b *testing.B) *profile.Profile {
	b.Helper()
	c := profgen.Default
	if os.Getenv("PERFLAB_BENCH_SMALL") != "" {
		c = profgen.Config{Seed: 1, Samples: 50_000, Locations: 20_000, Functions: 2_000, MaxDepth: 60, InlinePercent: 20, LabelPercent: 10}
	}
	path, err := profgen.Cached(profgen.CacheDir(), c)
	if err != nil {
		b.Fatal(err)
	}
	p, err := profiles.Load(context.Background(), []string{path}, profiles.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchBuild(b *testing.B, o report.Options) {
	p := benchProfile(b)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := flame.Build(p, o); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time per operation since cpu: on a shared,
// loaded machine it says more than the elapsed time. It includes the
// garbage collector's work, on every core.
func reportCPU(b *testing.B, cpu time.Duration) {
	if d := cpuTime() - cpu; d > 0 {
		b.ReportMetric(float64(d.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkBuild is loading the profile into the web UI.
func BenchmarkBuild(b *testing.B) { benchBuild(b, report.DefaultOptions()) }

// BenchmarkBuildFocus is a refinement: a new tree for a new -focus.
func BenchmarkBuildFocus(b *testing.B) {
	o := report.DefaultOptions()
	o.Focus = "acme/shop"
	benchBuild(b, o)
}

// BenchmarkBuildHide is a refinement that rewrites stacks.
func BenchmarkBuildHide(b *testing.B) {
	o := report.DefaultOptions()
	o.Hide = "runtime"
	benchBuild(b, o)
}

func benchView(b *testing.B, q func(t *flame.Tree) flame.Query) {
	p := benchProfile(b)
	t, err := flame.Build(p, report.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	query := q(t)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := t.View(query); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkView is the first flame graph view: the whole tree.
func BenchmarkView(b *testing.B) {
	benchView(b, func(*flame.Tree) flame.Query { return flame.Query{} })
}

// BenchmarkZoom is a click on a frame two levels down.
func BenchmarkZoom(b *testing.B) {
	benchView(b, func(t *flame.Tree) flame.Query {
		v, err := t.View(flame.Query{MaxDepth: 2})
		if err != nil || len(v.Frames) < 3 {
			b.Fatal("no frame to zoom to")
		}
		return flame.Query{Path: []string{v.Frames[1].Name, v.Frames[2].Name}}
	})
}

// BenchmarkSearch is a search over the whole tree.
func BenchmarkSearch(b *testing.B) {
	benchView(b, func(*flame.Tree) flame.Query { return flame.Query{Search: "cart|json"} })
}

// BenchmarkSandwich is the sandwich view of a frame on many stacks.
func BenchmarkSandwich(b *testing.B) {
	benchView(b, func(t *flame.Tree) flame.Query {
		fs := t.Functions()
		return flame.Query{Sandwich: fs[len(fs)/50].Name}
	})
}

// BenchmarkFunctions is the sandwich view's function table.
func BenchmarkFunctions(b *testing.B) {
	p := benchProfile(b)
	t, err := flame.Build(p, report.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t.Functions()
	}
}
