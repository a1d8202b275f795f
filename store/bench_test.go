package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
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

// BenchmarkComposeFleet composes the answer of a long range of a
// realistic service (internal/fleetgen's default: 3,000 distinct stacks)
// from its aggregated samples: 720 CPU profiles over three versions, so
// every stack is there three times, as over a week with two deploys. The
// answer's cost depends on the distinct stacks, not on the profiles.
func BenchmarkComposeFleet(b *testing.B) {
	f, err := fleetgen.New(fleetgen.Config{VersionEvery: 240})
	if err != nil {
		b.Fatal(err)
	}
	var m store.MergedHeader
	parts := store.NewParts()
	sums := map[[2]store.Hash][]int64{}
	err = f.Each("cpu", 720, func(p store.Profile) error {
		sp, err := store.Split(p.Profile)
		if err != nil {
			return err
		}
		h := store.MergeHeader(&sp.Header, store.OrderOf(p.Time, store.ProfileID(p.Labels, p.Time, sp)))
		m.Add(&h)
		parts.Add(sp.Parts)
		for _, s := range sp.Samples {
			k := [2]store.Hash{s.Stack, s.Labels}
			if sums[k] == nil {
				sums[k] = make([]int64, len(s.Values))
			}
			for i, v := range s.Values {
				sums[k][i] += v
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	samples := make([]store.Sample, 0, len(sums))
	for k, v := range sums {
		samples = append(samples, store.Sample{Stack: k[0], Labels: k[1], Values: v})
	}
	b.ResetTimer()
	cpu := cputime.Self()
	for b.Loop() {
		if _, err := store.Compose(context.Background(), &m, cpuType, samples, parts); err != nil {
			b.Fatal(err)
		}
	}
	testprog.ReportCPU(b, cpu)
	b.ReportMetric(float64(len(samples)), "samples")
}

// BenchmarkSplit splits realistic 10-second CPU profiles (fleetgen's
// default service, about 1,000 samples and 350 distinct stacks each), as
// a store's Write does.
func BenchmarkSplit(b *testing.B) {
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		b.Fatal(err)
	}
	var ps []*profile.Profile
	if err := f.Each("cpu", 100, func(p store.Profile) error {
		ps = append(ps, p.Profile)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	cpu := cputime.Self()
	i := 0
	for b.Loop() {
		if _, err := store.Split(ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	testprog.ReportCPU(b, cpu)
}
