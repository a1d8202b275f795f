package units

import (
	"testing"
	"time"
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

// TestExactBytes checks the sizes error messages print, in the unit a
// limit such as -max_bytes is given in.
func TestExactBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1500: "1500 bytes", 1024: "1 KiB", 4 << 20: "4 MiB",
		1 << 30: "1 GiB", 3 << 29: "1536 MiB", 1<<30 + 1: "1073741825 bytes",
	} {
		if got := ExactBytes(n); got != want {
			t.Errorf("ExactBytes(%d) = %q; want %q", n, got, want)
		}
	}
}

// TestBytes checks the one convention summaries print sizes in: pprof's
// binary units, one decimal, whole bytes below a kilobyte.
func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 kB", 1536: "1.5 kB", 5 << 20: "5.0 MB",
		3 << 29: "1.5 GB", 2 << 40: "2.0 TB", -2048: "-2.0 kB",
	} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q; want %q", n, got, want)
		}
	}
}

// TestDuration checks the one convention durations print in: three
// significant digits in the largest unit reached.
func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 750: "750ns", 812_300: "812µs", 45_620_000: "45.6ms", 1_234_000_000: "1.23s",
		125 * time.Second: "125s", -1500 * time.Microsecond: "-1.50ms",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%d) = %q; want %q", d, got, want)
		}
	}
	if got := Seconds(0.0456); got != "45.6ms" {
		t.Errorf("Seconds(0.0456) = %q; want 45.6ms", got)
	}
}
