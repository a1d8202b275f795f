package profiles

import (
	"flag"
	"io"
	"testing"
)

func TestSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
		out  string
	}{
		{"1GiB", 1 << 30, "1GiB"}, {"64mb", 64 << 20, "64MiB"}, {"512K", 512 << 10, "512KiB"},
		{"1500", 1500, "1500"}, {"3 MiB", 3 << 20, "3MiB"}, {"2048B", 2048, "2KiB"},
	} {
		var s Size
		if err := s.Set(tt.in); err != nil || int64(s) != tt.want || s.String() != tt.out {
			t.Errorf("Set(%q) = %d (%s), %v; want %d (%s)", tt.in, int64(s), s, err, tt.want, tt.out)
		}
	}
	for _, in := range []string{"", "0", "-5", "1.5GiB", "lots", "99999999999GiB"} {
		var s Size
		if err := s.Set(in); err == nil {
			t.Errorf("Set(%q) = %d; want an error", in, int64(s))
		}
	}
	// As a flag, through the standard flag package.
	var max int64 = DefaultMaxBytes
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var((*Size)(&max), "max_bytes", "limit")
	if err := fs.Parse([]string{"-max_bytes", "2GiB"}); err != nil || max != 2<<30 {
		t.Errorf("-max_bytes 2GiB: %d, %v", max, err)
	}
}
