package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a time as -from and -until take it: RFC 3339
// (2026-11-26T03:10:00Z), Unix seconds (1795000000), "now", or a time
// relative to now: -2h, -7d, now-30m (units of ParseDuration).
func ParseTime(s string, now time.Time) (time.Time, error) {
	switch {
	case s == "now":
		return now, nil
	case strings.HasPrefix(s, "now-"), strings.HasPrefix(s, "-"):
		d, err := ParseDuration(s[strings.IndexByte(s, '-')+1:])
		if err != nil {
			return time.Time{}, fmt.Errorf("time %q: %w", clip(s), err)
		}
		return now.Add(-d), nil
	}
	if secs, err := strconv.ParseInt(s, 10, 64); err == nil {
		if secs < 0 || secs > maxUnixSeconds {
			return time.Time{}, fmt.Errorf("time %q: Unix seconds out of range", clip(s))
		}
		return time.Unix(secs, 0), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("time %q: want RFC 3339 (2006-01-02T15:04:05Z), Unix seconds, now, or -DURATION such as -2h or -7d", clip(s))
	}
	return t, nil
}

// maxUnixSeconds is the year 9999: later times do not fit RFC 3339.
const maxUnixSeconds = 253402300799

// ParseDuration reads a duration as time.ParseDuration does, with two more
// units: d (24h) and w (7d), as in 7d or 1w2d.
func ParseDuration(s string) (time.Duration, error) {
	var total time.Duration
	rest := s
	for rest != "" {
		i := strings.IndexAny(rest, "dw")
		if i < 0 {
			break
		}
		n, err := strconv.ParseInt(rest[:i], 10, 64)
		if err != nil || n < 0 || n > 100*365 {
			return 0, fmt.Errorf("duration %q: want a count of days or weeks before %c", clip(s), rest[i])
		}
		unit := 24 * time.Hour
		if rest[i] == 'w' {
			unit *= 7
		}
		total += time.Duration(n) * unit
		rest = rest[i+1:]
	}
	if rest != "" {
		d, err := time.ParseDuration(rest)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("duration %q: want a duration such as 90s, 2h or 7d", clip(s))
		}
		total += d
	}
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	return total, nil
}
