// Package units is the one table of the measurement units pprof knows —
// bytes, time and Google Compute Units — and the conversions between them,
// spelled and rounded exactly as pprof's internal/measurement does. Package
// profiles uses it to merge profiles recorded in different units of one
// dimension, package report to print values.
//
// It also holds the one way each kind of quantity is printed for people
// (format.go): sizes in summaries (Bytes), limits (ExactBytes, ParseSize),
// heap sizes in gctrace's unit (MB) and durations (Duration).
package units

import (
	"fmt"
	"slices"
	"strings"
)

// A Unit is one named multiple within a dimension.
type Unit struct {
	Name    string   // how values are printed, e.g. "MB"
	aliases []string // lower-case spellings accepted in profiles and flags
	Factor  float64  // size in the dimension's base unit
}

// A dimension groups units of one kind (bytes, time, GCU).
type dimension struct {
	units []Unit
	def   Unit // used when the target unit is unknown or no unit fits
}

// dimensions is pprof's table (internal/measurement.UnitTypes). Note that
// pprof drops a trailing "s" from spellings longer than two bytes, so its
// "μs" alias never matches: pprof reads "μs" and "µs" as unknown units, and
// so does perflab.
var dimensions = []dimension{
	{
		units: []Unit{
			{"B", []string{"b", "byte"}, 1},
			{"kB", []string{"kb", "kbyte", "kilobyte"}, 1 << 10},
			{"MB", []string{"mb", "mbyte", "megabyte"}, 1 << 20},
			{"GB", []string{"gb", "gbyte", "gigabyte"}, 1 << 30},
			{"TB", []string{"tb", "tbyte", "terabyte"}, 1 << 40},
			{"PB", []string{"pb", "pbyte", "petabyte"}, 1 << 50},
		},
		def: Unit{"B", nil, 1},
	},
	{
		units: []Unit{
			{"ns", []string{"ns", "nanosecond"}, 1},
			{"us", []string{"μs", "us", "microsecond"}, 1e3},
			{"ms", []string{"ms", "millisecond"}, 1e6},
			{"s", []string{"s", "sec", "second"}, 1e9},
			{"hrs", []string{"hour", "hr"}, 3600e9},
		},
		def: Unit{"s", nil, 1e9},
	},
	{
		units: []Unit{
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
		def: Unit{"GCU", nil, 1},
	},
}

// find returns the unit of d spelled s, or nil. As in pprof, case is
// ignored and a plural "s" is dropped from spellings longer than two bytes.
func (d *dimension) find(s string) *Unit {
	s = strings.ToLower(s)
	if len(s) > 2 {
		s = strings.TrimSuffix(s, "s")
	}
	for i := range d.units {
		if slices.Contains(d.units[i].aliases, s) {
			return &d.units[i]
		}
	}
	return nil
}

// Find returns the unit spelled s and the index of its dimension, or nil
// and -1 if pprof does not know s.
func Find(s string) (u *Unit, dim int) {
	for i := range dimensions {
		if u := dimensions[i].find(s); u != nil {
			return u, i
		}
	}
	return nil, -1
}

// Compatible reports whether values in units a and b can be converted into
// each other: the same spelling, or two known units of one dimension.
func Compatible(a, b string) bool {
	if a == b {
		return true
	}
	ua, da := Find(a)
	ub, db := Find(b)
	return ua != nil && ub != nil && da == db
}

// Ratio returns how many to-units one from-unit is, or 1 if they are not
// two known units of one dimension.
func Ratio(from, to string) float64 {
	uf, df := Find(from)
	ut, dt := Find(to)
	if uf == nil || ut == nil || df != dt {
		return 1
	}
	return uf.Factor / ut.Factor
}

// convert expresses v (in from) in to, where to may be "minimum" or "auto"
// to pick the largest unit in which the value is at least 1.
func (d *dimension) convert(v int64, from, to string) (float64, string, bool) {
	fu := d.find(from)
	if fu == nil {
		return 0, "", false
	}
	x := float64(v) * fu.Factor
	if to == "minimum" || to == "auto" {
		var best float64
		var name string
		for _, u := range d.units {
			if u.Factor >= best && x/u.Factor >= 1 {
				best, name = u.Factor, u.Name
			}
		}
		if best != 0 {
			return x / best, name, true
		}
		return x / d.def.Factor, d.def.Name, true
	}
	if tu := d.find(to); tu != nil {
		return x / tu.Factor, tu.Name, true
	}
	return x / d.def.Factor, d.def.Name, true
}

// Scale converts value from one unit to another, as pprof's
// measurement.Scale: to may be a unit, "minimum" or "auto". It returns the
// new value and the name of its unit ("" for plain counts).
func Scale(value int64, from, to string) (float64, string) {
	if value < 0 && -value > 0 {
		v, u := Scale(-value, from, to)
		return -v, u
	}
	for i := range dimensions {
		if v, u, ok := dimensions[i].convert(value, from, to); ok {
			return v, u
		}
	}
	switch to {
	case "count", "sample", "unit", "minimum", "auto":
		return float64(value), ""
	}
	return float64(value), to
}

// Label formats value, converted to the unit to, with two decimals at
// most, as pprof prints values: "1.50s", "512kB", "0".
func Label(value int64, from, to string) string {
	v, u := Scale(value, from, to)
	s := strings.TrimSuffix(fmt.Sprintf("%.2f", v), ".00")
	if s == "0" || s == "-0" {
		return "0"
	}
	return s + u
}
