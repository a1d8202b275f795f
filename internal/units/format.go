package units

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// This file holds the ways perflab prints bytes and durations for people
// (messages, summaries, reports that are not pprof's): one function per
// convention, each read from the one table below or pprof's table above,
// so that a size or a duration reads the same in every command.

// binary is the table of binary multiples by their IEC names, largest
// first, in which limits are given and printed ("-max_bytes 512MiB"). The
// short names ("kB", "MB") pprof and the runtime print are in dimensions.
var binary = []struct {
	suffixes []string // accepted spellings, the IEC name first
	factor   int64
}{
	{[]string{"GiB", "GB", "G"}, 1 << 30},
	{[]string{"MiB", "MB", "M"}, 1 << 20},
	{[]string{"KiB", "KB", "K"}, 1 << 10},
	{[]string{"B"}, 1},
}

// Bytes formats a number of bytes for a summary, in the largest of
// pprof's byte units it reaches, with one decimal: "512 B", "1.5 kB",
// "2.3 GB" (binary multiples, as pprof and the runtime print them).
func Bytes(n int64) string {
	if n < 0 {
		return "-" + Bytes(-n)
	}
	var best Unit
	for _, u := range dimensions[0].units {
		if float64(n) >= u.Factor {
			best = u
		}
	}
	if best.Factor <= 1 {
		return strconv.FormatInt(n, 10) + " B"
	}
	return fmt.Sprintf("%.1f %s", float64(n)/best.Factor, best.Name)
}

// MB formats a number of bytes in megabytes with one decimal, "4.5 MB":
// the unit gctrace prints every heap size in, kept so that figures can be
// compared with its lines.
func MB(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

// GiB formats a large size, such as an estimate of memory, in GiB with
// one decimal: "0.5 GiB".
func GiB(n int64) string {
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// Exact returns n bytes in the largest binary unit that divides it, and
// that unit's IEC name ("" if none does): a limit the user set reads back
// as it was given.
func Exact(n int64) (int64, string) {
	for _, u := range binary {
		if u.factor > 1 && n >= u.factor && n%u.factor == 0 {
			return n / u.factor, u.suffixes[0]
		}
	}
	return n, ""
}

// ExactBytes formats a limit for a message, in the largest binary unit
// that divides it: "4 MiB", "1500 bytes".
func ExactBytes(n int64) string {
	n, unit := Exact(n)
	if unit == "" {
		unit = "bytes"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// ParseSize reads a positive size with an optional unit: K, M and G are
// binary (1024-based), with or without "iB" or "B", in any case; "64MiB",
// "512k", "1500".
func ParseSize(text string) (int64, error) {
	t := strings.TrimSpace(text)
	factor := int64(1)
	found := false
	for _, u := range binary {
		for _, s := range u.suffixes {
			if !found && len(t) > len(s) && strings.EqualFold(t[len(t)-len(s):], s) {
				t, factor, found = strings.TrimSpace(t[:len(t)-len(s)]), u.factor, true
			}
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/factor {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes, e.g. 512MiB or 2GiB", text)
	}
	return n * factor, nil
}

// Duration formats d with three significant digits in the largest unit
// it reaches: "0s", "750ns", "812µs", "45.6ms", "1.23s", "125s".
func Duration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d < 0:
		return "-" + Duration(-d)
	case d < time.Microsecond:
		return fmt.Sprintf("%dns", d)
	case d < time.Millisecond:
		return significant(float64(d)/1e3) + "µs"
	case d < time.Second:
		return significant(float64(d)/1e6) + "ms"
	}
	return significant(d.Seconds()) + "s"
}

// Seconds is Duration for a number of seconds.
func Seconds(s float64) string {
	return Duration(time.Duration(s * 1e9))
}

// significant prints x with three significant digits, at most two
// decimals.
func significant(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}
