package report_test

import (
	"context"
	"io"
	"os"
	"regexp"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
)

// benchConfig is a tenth of the benchmark profile, so that -bench runs
// stay short on a shared machine; PERFLAB_BENCH_FULL=1 uses the full
// 500k-sample profile (profgen.Default).
var benchConfig = profgen.Config{
	Seed: 1, Samples: 50_000, Locations: 20_000, Functions: 2_000, MaxDepth: 60,
	InlinePercent: 20, LabelPercent: 10,
}

func benchProfile(b *testing.B) string {
	b.Helper()
	c := benchConfig
	if os.Getenv("PERFLAB_BENCH_FULL") != "" {
		c = profgen.Default
	}
	path, err := profgen.Cached(profgen.CacheDir(), c)
	if err != nil {
		b.Fatal(err)
	}
	return path
}

func loadBench(b *testing.B) *profile.Profile {
	b.Helper()
	p, err := profiles.Load(context.Background(), []string{benchProfile(b)}, profiles.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkLoad(b *testing.B) {
	path := benchProfile(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := profiles.Load(context.Background(), []string{path}, profiles.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchReport times report k alone on a loaded profile; the reports
// without filters leave the profile as they found it.
func benchReport(b *testing.B, k report.Kind, symbol string) {
	p := loadBench(b)
	o := report.DefaultOptions()
	o.Symbol = symbol
	if k == report.Top {
		o.NodeCount = 20
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := report.Generate(io.Discard, p, k, o); err != nil {
			b.Fatal(err)
		}
	}
}

// hotFunction names a function with many samples, for peek and list.
func hotFunction(b *testing.B) string {
	p := loadBench(b)
	return "^" + regexp.QuoteMeta(p.Sample[0].Location[0].Line[0].Function.Name) + "$"
}

func BenchmarkTop(b *testing.B)    { benchReport(b, report.Top, "") }
func BenchmarkTree(b *testing.B)   { benchReport(b, report.Tree, "") }
func BenchmarkPeek(b *testing.B)   { benchReport(b, report.Peek, hotFunction(b)) }
func BenchmarkList(b *testing.B)   { benchReport(b, report.List, hotFunction(b)) }
func BenchmarkTraces(b *testing.B) { benchReport(b, report.Traces, "") }
