package clickhouse

import (
	"fmt"
	"math"
	"testing"
)

// TestSpans checks how a range is split between the rollups and the
// samples: whole days, then whole hours, then the rest, covering the
// range once, never a bucket before the epoch's first.
func TestSpans(t *testing.T) {
	day, hour := int64(dayNanos), int64(hourNanos)
	d := 20_000 * day // a day some time after the epoch
	for _, tc := range []struct {
		lo, hi int64
		want   string
	}{
		{d, d + 7*day, fmt.Sprintf("[{samples_daily bucket %d %d}]", d, d+7*day)},
		{d + 90*60e9, d + 3*day + 30*60e9, fmt.Sprintf("[{samples_daily bucket %d %d} {samples_hourly bucket %d %d} {samples time %d %d} {samples time %d %d}]",
			d+day, d+3*day, d+2*hour, d+day, d+90*60e9, d+2*hour, d+3*day, d+3*day+30*60e9)},
		{d + 10, d + hour - 10, fmt.Sprintf("[{samples time %d %d}]", d+10, d+hour-10)},
		{d, d, "[]"},
		{math.MinInt64, math.MaxInt64, fmt.Sprintf("[{samples_daily bucket %d %d} {samples_hourly bucket %d %d} {samples_hourly bucket %d %d} {samples time %d %d} {samples time %d %d}]",
			day, math.MaxInt64/day*day, hour, day, math.MaxInt64/day*day, math.MaxInt64/hour*hour, int64(math.MinInt64), hour, math.MaxInt64/hour*hour, int64(math.MaxInt64))},
		{-3 * hour, 2 * hour, fmt.Sprintf("[{samples_hourly bucket %d %d} {samples time %d %d}]", hour, 2*hour, -3*hour, hour)},
	} {
		if got := fmt.Sprint(spans(tc.lo, tc.hi)); got != tc.want {
			t.Errorf("spans(%d, %d) =\n%s, want\n%s", tc.lo, tc.hi, got, tc.want)
		}
	}
}
