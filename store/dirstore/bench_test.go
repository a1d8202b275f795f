package dirstore

import (
	"context"
	"testing"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// BenchmarkWrite writes consecutive 10-second CPU profiles of fleetgen's
// realistic service, one a Write, from 16 goroutines for each of
// GOMAXPROCS (as many pushes at once as a busy server has): each one's
// Split, and its share of a group commit's fsync.
func BenchmarkWrite(b *testing.B) {
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		b.Fatal(err)
	}
	const n = 256
	ps := make([]store.Profile, n)
	for i := range ps {
		if ps[i], err = f.Profile("cpu", 0, i); err != nil {
			b.Fatal(err)
		}
	}
	s := openStore(b, b.TempDir(), Options{})
	ctx := context.Background()
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Self()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if err := s.Write(ctx, ps[i%n]); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "profiles/s")
	b.ReportMetric(float64(cputime.Self()-cpu)/float64(b.N), "cpu-ns/op")
}
