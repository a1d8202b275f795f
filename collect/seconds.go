package collect

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// ParseSeconds parses the seconds parameter of a profile or trace request:
// a positive decimal number of seconds, at most max. An empty s means def
// (itself capped at max). Errors are one line and quote at most a short
// prefix of s.
func ParseSeconds(s string, def, max time.Duration) (time.Duration, error) {
	if s == "" {
		return min(def, max), nil
	}
	if len(s) > 32 {
		return 0, fmt.Errorf("bad seconds %q: too long", clip(s, 32))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("bad seconds %q: want a number", s)
	}
	if f <= 0 {
		return 0, fmt.Errorf("bad seconds %q: must be positive", s)
	}
	if f > max.Seconds() {
		return 0, fmt.Errorf("bad seconds %q: at most %v allowed", s, max)
	}
	d := time.Duration(f * float64(time.Second))
	if d <= 0 {
		return 0, fmt.Errorf("bad seconds %q: shorter than a nanosecond", s)
	}
	return d, nil
}
