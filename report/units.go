package report

import (
	"fmt"
	"math"

	"github.com/perflab/perflab/internal/units"
)

// scale converts value from one unit to another (see units.Scale).
func scale(value int64, from, to string) (float64, string) { return units.Scale(value, from, to) }

// scaledLabel formats value, converted to the unit to, as pprof prints
// values: "1.50s", "512kB", "0".
func scaledLabel(value int64, from, to string) string { return units.Label(value, from, to) }

// autoLabel formats value in the most natural unit.
func autoLabel(value int64, unit string) string { return units.Label(value, unit, "auto") }

// percentage formats value as a share of total the way pprof's columns do:
// six characters wide, "  100%" near 100, two decimals from 1% up and two
// significant digits below.
func percentage(value, total int64) string {
	var r float64
	if total != 0 {
		r = math.Abs(float64(value)/float64(total)) * 100
	}
	switch {
	case r >= 99.95 && r <= 100.05:
		return "  100%"
	case r >= 1.0:
		return fmt.Sprintf("%5.2f%%", r)
	}
	return fmt.Sprintf("%5.2g%%", r)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
