package units

import (
	"testing"
)

// TestSpellings checks pprof's reading of unit spellings, taken from its
// internal/measurement: case is ignored, a plural "s" is dropped from
// spellings over two bytes, so the micro sign spellings are unknown.
func TestSpellings(t *testing.T) {
	for _, c := range []struct {
		spelling string
		name     string // "" for unknown
	}{
		{"ns", "ns"}, {"nanoseconds", "ns"}, {"NS", "ns"},
		{"us", "us"}, {"microseconds", "us"},
		{"µs", ""}, // U+00B5 MICRO SIGN
		{"μs", ""}, // U+03BC GREEK SMALL LETTER MU
		{"ms", "ms"}, {"milliseconds", "ms"}, {"s", "s"}, {"seconds", "s"}, {"sec", "s"}, {"hours", "hrs"},
		{"B", "B"}, {"bytes", "B"}, {"kB", "kB"}, {"KB", "kB"}, {"kilobytes", "kB"}, {"MB", "MB"},
		{"megabytes", "MB"}, {"GB", "GB"}, {"TB", "TB"}, {"PB", "PB"},
		{"gcu", "GCU"}, {"milligcu", "m*GCU"},
		{"count", ""}, {"objects", ""}, {"", ""},
	} {
		u, dim := Find(c.spelling)
		var got string
		if u != nil {
			got = u.Name
		}
		if got != c.name || (u == nil) != (dim == -1) {
			t.Errorf("Find(%q) = %q, dimension %d; want %q", c.spelling, got, dim, c.name)
		}
	}
}

func TestScaleAndRatio(t *testing.T) {
	for _, c := range []struct {
		v        int64
		from, to string
		want     string
	}{
		{1500, "nanoseconds", "minimum", "1.50us"},
		{1500000, "ns", "ms", "1.50ms"},
		{1500, "ns", "ms", "0"},
		{-2048, "bytes", "auto", "-2kB"},
		{3, "count", "minimum", "3"},
		{3, "μs", "ms", "3ms"}, // unknown: the target is printed as given
		{90 * 60e9, "ns", "minimum", "1.50hrs"},
		{0, "ns", "ms", "0"},
	} {
		if got := Label(c.v, c.from, c.to); got != c.want {
			t.Errorf("Label(%d, %q, %q) = %q, want %q", c.v, c.from, c.to, got, c.want)
		}
	}
	if r := Ratio("ms", "ns"); r != 1e6 {
		t.Errorf("Ratio(ms, ns) = %v", r)
	}
	if r := Ratio("μs", "ns"); r != 1 {
		t.Errorf("Ratio(μs, ns) = %v, want 1 (unknown unit)", r)
	}
	if Compatible("ns", "bytes") || !Compatible("ns", "seconds") || !Compatible("μs", "μs") || Compatible("μs", "ns") {
		t.Error("Compatible disagrees with pprof")
	}
}
