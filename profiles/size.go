package profiles

import (
	"strconv"

	"github.com/perflab/perflab/internal/units"
)

// A Size is a number of bytes that reads and prints with binary units:
// "1GiB", "64MiB", "512KiB" or a plain number. It implements flag.Value,
// for flags such as -max_bytes:
//
//	opts.MaxBytes = DefaultMaxBytes
//	fs.Var((*profiles.Size)(&opts.MaxBytes), "max_bytes", "refuse profiles larger than this")
type Size int64

// String prints the size in the largest binary unit that divides it.
func (s Size) String() string {
	n, unit := units.Exact(int64(s))
	return strconv.FormatInt(n, 10) + unit
}

// Set parses a positive size with an optional unit; K, M and G are
// binary (1024-based) units, with or without "iB" or "B".
func (s *Size) Set(text string) error {
	n, err := units.ParseSize(text)
	if err != nil {
		return err
	}
	*s = Size(n)
	return nil
}
