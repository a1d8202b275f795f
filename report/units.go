package report

import (
	"fmt"
	"math"
	"strings"
)

// A unit is one named multiple within a family of units.
type unit struct {
	name    string   // how values are printed, e.g. "MB"
	aliases []string // lower-case spellings accepted in profiles and flags
	factor  float64  // size in the family's base unit
}

// A unitFamily groups units of one dimension (bytes, time, GCU).
type unitFamily struct {
	units []unit
	def   unit // used when a value fits no unit or the target is unknown
}

var unitFamilies = []unitFamily{
	{
		units: []unit{
			{"B", []string{"b", "byte"}, 1},
			{"kB", []string{"kb", "kbyte", "kilobyte"}, 1 << 10},
			{"MB", []string{"mb", "mbyte", "megabyte"}, 1 << 20},
			{"GB", []string{"gb", "gbyte", "gigabyte"}, 1 << 30},
			{"TB", []string{"tb", "tbyte", "terabyte"}, 1 << 40},
			{"PB", []string{"pb", "pbyte", "petabyte"}, 1 << 50},
		},
		def: unit{"B", nil, 1},
	},
	{
		units: []unit{
			{"ns", []string{"ns", "nanosecond"}, 1},
			{"us", []string{"μs", "us", "microsecond"}, 1e3},
			{"ms", []string{"ms", "millisecond"}, 1e6},
			{"s", []string{"s", "sec", "second"}, 1e9},
			{"hrs", []string{"hour", "hr"}, 3600e9},
		},
		def: unit{"s", nil, 1e9},
	},
	{
		units: []unit{
			{"n*GCU", []string{"nanogcu"}, 1e-9},
			{"u*GCU", []string{"microgcu"}, 1e-6},
			{"m*GCU", []string{"milligcu"}, 1e-3},
			{"GCU", []string{"gcu"}, 1},
			{"k*GCU", []string{"kilogcu"}, 1e3},
			{"M*GCU", []string{"megagcu"}, 1e6},
			{"G*GCU", []string{"gigagcu"}, 1e9},
			{"T*GCU", []string{"teragcu"}, 1e12},
			{"P*GCU", []string{"petagcu"}, 1e15},
		},
		def: unit{"GCU", nil, 1},
	},
}

// find returns the unit spelled s (case-insensitive, a plural "s" dropped
// from names longer than two bytes), or nil.
func (f *unitFamily) find(s string) *unit {
	s = strings.ToLower(s)
	if len(s) > 2 {
		s = strings.TrimSuffix(s, "s")
	}
	for i := range f.units {
		for _, a := range f.units[i].aliases {
			if a == s {
				return &f.units[i]
			}
		}
	}
	return nil
}

// convert expresses v (in from) in to, where to may be "minimum" or "auto"
// to pick the largest unit in which the value is at least 1.
func (f *unitFamily) convert(v int64, from, to string) (float64, string, bool) {
	fu := f.find(from)
	if fu == nil {
		return 0, "", false
	}
	x := float64(v) * fu.factor
	if to == "minimum" || to == "auto" {
		var best float64
		var name string
		for _, u := range f.units {
			if u.factor >= best && x/u.factor >= 1 {
				best, name = u.factor, u.name
			}
		}
		if best != 0 {
			return x / best, name, true
		}
		return x / f.def.factor, f.def.name, true
	}
	if tu := f.find(to); tu != nil {
		return x / tu.factor, tu.name, true
	}
	return x / f.def.factor, f.def.name, true
}

// scale converts value from one unit to another and returns the new value
// and the name of its unit ("" for plain counts).
func scale(value int64, from, to string) (float64, string) {
	if value < 0 && -value > 0 {
		v, u := scale(-value, from, to)
		return -v, u
	}
	for i := range unitFamilies {
		if v, u, ok := unitFamilies[i].convert(value, from, to); ok {
			return v, u
		}
	}
	switch to {
	case "count", "sample", "unit", "minimum", "auto":
		return float64(value), ""
	}
	return float64(value), to
}

// scaledLabel formats value, converted to the unit to, with two decimals
// at most, as pprof prints values: "1.50s", "512kB", "0".
func scaledLabel(value int64, from, to string) string {
	v, u := scale(value, from, to)
	s := strings.TrimSuffix(fmt.Sprintf("%.2f", v), ".00")
	if s == "0" || s == "-0" {
		return "0"
	}
	return s + u
}

// autoLabel formats value in the most natural unit.
func autoLabel(value int64, unit string) string { return scaledLabel(value, unit, "auto") }

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
