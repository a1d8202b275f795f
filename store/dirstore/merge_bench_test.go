package dirstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/storebench"
	"github.com/perflab/perflab/store/dirstore"
)

// benchStore opens the store of a week of 10-second CPU profiles of
// fleetgen's realistic service (storebench.OpenWeek).
func benchStore(b *testing.B) (*dirstore.Store, *storebench.Manifest) { return storebench.OpenWeek(b) }

// benchmarkMerge merges the last d of the week's store: rollups of the
// hours and days the range holds, profiles at its edges.
func benchmarkMerge(b *testing.B, d time.Duration) {
	s, m := benchStore(b)
	ctx := context.Background()
	sel := m.Last(d)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Merge(ctx, sel); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d/(10*time.Second)), "profiles/op")
}

// BenchmarkMerge8h merges the last 8 hours (2,880 profiles).
func BenchmarkMerge8h(b *testing.B) { benchmarkMerge(b, 8*time.Hour) }

// BenchmarkMergeDay merges the last day (8,640 profiles).
func BenchmarkMergeDay(b *testing.B) { benchmarkMerge(b, 24*time.Hour) }

// BenchmarkMergeWeek merges the last 7 days but 7 minutes (60,480
// profiles but 42).
func BenchmarkMergeWeek(b *testing.B) { benchmarkMerge(b, 7*24*time.Hour-7*time.Minute) }
