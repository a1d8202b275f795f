package profiles

import (
	"fmt"
	"strconv"
	"strings"
)

// A Size is a number of bytes that reads and prints with binary units:
// "1GiB", "64MiB", "512KiB" or a plain number. It implements flag.Value,
// for flags such as -max_bytes:
//
//	opts.MaxBytes = DefaultMaxBytes
//	fs.Var((*profiles.Size)(&opts.MaxBytes), "max_bytes", "refuse profiles larger than this")
type Size int64

var sizeUnits = []struct {
	suffix string
	factor int64
}{
	{"GiB", 1 << 30}, {"GB", 1 << 30}, {"G", 1 << 30},
	{"MiB", 1 << 20}, {"MB", 1 << 20}, {"M", 1 << 20},
	{"KiB", 1 << 10}, {"KB", 1 << 10}, {"K", 1 << 10},
	{"B", 1},
}

// String prints the size in the largest binary unit that divides it.
func (s Size) String() string {
	n, unit := inUnits(int64(s))
	return strconv.FormatInt(n, 10) + unit
}

// inUnits returns n bytes in the largest binary unit (GiB, MiB, KiB) that
// divides it, and that unit; "" if none does.
func inUnits(n int64) (int64, string) {
	for _, u := range sizeUnits {
		if strings.HasSuffix(u.suffix, "iB") && n >= u.factor && n%u.factor == 0 {
			return n / u.factor, u.suffix
		}
	}
	return n, ""
}

// Set parses a positive size with an optional unit; K, M and G are
// binary (1024-based) units, with or without "iB" or "B".
func (s *Size) Set(text string) error {
	t := strings.TrimSpace(text)
	factor := int64(1)
	for _, u := range sizeUnits {
		if len(t) > len(u.suffix) && strings.EqualFold(t[len(t)-len(u.suffix):], u.suffix) {
			t, factor = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/factor {
		return fmt.Errorf("invalid size %q: want a positive number of bytes, e.g. 512MiB or 2GiB", text)
	}
	*s = Size(n * factor)
	return nil
}
