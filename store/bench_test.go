package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
)

// BenchmarkCompose composes the merge of a service's profiles from its
// aggregated samples: profgen's small profile, 20,000 samples over 5,000
// locations, as a long range's distinct stacks.
func BenchmarkCompose(b *testing.B) {
	cfg := profgen.Small
	cfg.Samples, cfg.Locations, cfg.Functions = 20_000, 5_000, 800
	p, err := profgen.Generate(cfg)
	if err != nil {
		b.Fatal(err)
	}
	sp, err := store.Split(p)
	if err != nil {
		b.Fatal(err)
	}
	at := time.Unix(1_800_000_000, 0)
	m := store.MergeHeader(&sp.Header, store.OrderOf(at, "x"))
	b.ReportMetric(float64(len(sp.Samples)), "samples")
	b.ResetTimer()
	cpu := cputime.Self()
	for b.Loop() {
		if _, err := store.Compose(context.Background(), &m, cpuType, sp.Samples, sp.Parts); err != nil {
			b.Fatal(err)
		}
	}
	testprog.ReportCPU(b, cpu)
}

// BenchmarkSplit splits profgen's small profile (2,000 samples), as a
// store's Write does: alone, and again with a Splitter that has seen it,
// as consecutive profiles of a series share most of their parts.
func BenchmarkSplit(b *testing.B) {
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("once", func(b *testing.B) {
		cpu := cputime.Self()
		for b.Loop() {
			if _, err := store.Split(p); err != nil {
				b.Fatal(err)
			}
		}
		testprog.ReportCPU(b, cpu)
	})
	b.Run("seen", func(b *testing.B) {
		var s store.Splitter
		cpu := cputime.Self()
		for b.Loop() {
			if _, err := s.Split(p); err != nil {
				b.Fatal(err)
			}
		}
		testprog.ReportCPU(b, cpu)
	})
}
