package store

import (
	"fmt"
	"strings"
	"time"
)

// IsSource reports whether s, a SOURCE on perflab's command line, is a
// selection rather than a file or a URL: whether it begins as a label
// selector does, with { or a name and { (such as {service_name="api"} or
// process_cpu{}). ParseSource then tells whether it is a good one.
func IsSource(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.IndexByte(s, '{')
	return i == 0 || i > 0 && ValidLabelName(s[:i])
}

// ParseSource reads a selection given as a SOURCE on perflab's command
// line: a label selector in Prometheus syntax (see ParseSelector),
// optionally followed by @FROM..UNTIL, a time range of its own, each end
// a time as ParseTime reads it, relative to now:
//
//	{service_name="api"}                     the range of def
//	{service_name="api"}@-14d..-7d           a week, a week ago
//	{service_name="api", version="1.42"}@-1h..    from an hour ago to def's end
//	{service_name="api"}@..2026-11-26T03:00:00Z   from def's start
//
// The selection takes def's Type, and def's Start and End where the
// source gives none.
func ParseSource(s string, def Selection, now time.Time) (Selection, error) {
	sel := def
	body, rng := strings.TrimSpace(s), ""
	if end := strings.LastIndexByte(body, '}'); end >= 0 && end+1 < len(body) {
		body, rng = body[:end+1], body[end+1:]
		if !strings.HasPrefix(rng, "@") {
			return Selection{}, fmt.Errorf("selection %q: want @FROM..UNTIL after the selector", clip(s))
		}
		rng = rng[1:]
	}
	var err error
	if sel.Selector, err = ParseSelector(body); err != nil {
		return Selection{}, err
	}
	if rng == "" {
		return sel, nil
	}
	from, until, ok := strings.Cut(rng, "..")
	if !ok {
		return Selection{}, fmt.Errorf("selection %q: want @FROM..UNTIL, such as @-14d..-7d", clip(s))
	}
	if from != "" {
		if sel.Start, err = ParseTime(from, now); err != nil {
			return Selection{}, fmt.Errorf("selection %q: from: %w", clip(s), err)
		}
	}
	if until != "" {
		if sel.End, err = ParseTime(until, now); err != nil {
			return Selection{}, fmt.Errorf("selection %q: until: %w", clip(s), err)
		}
	}
	if !sel.End.IsZero() && !sel.Start.Before(sel.End) {
		return Selection{}, fmt.Errorf("selection %q: the range ends at or before its start", clip(s))
	}
	return sel, nil
}
