package store

import "time"

// Contains reports whether t is in s's time range [Start, End); a zero End
// means no end.
func (s Selection) Contains(t time.Time) bool {
	return !t.Before(s.Start) && (s.End.IsZero() || t.Before(s.End))
}

// Picks reports whether s picks the profile with header h stored in the
// series labels at t: the series matches s.Selector and has s.Type's name
// as its __name__, t is in range, and h has s.Type's sample type and period
// type. A zero Type picks every type.
func (s Selection) Picks(labels Labels, t time.Time, h *Header) bool {
	if !s.Contains(t) || !s.Selector.Matches(labels) {
		return false
	}
	if s.Type == (ProfileType{}) {
		return true
	}
	return labels.Get(LabelName) == s.Type.Name && h.Index(s.Type) >= 0
}

// BucketStart returns the start of the Totals bucket of width step that
// holds t: the latest multiple of step since the Unix epoch not after t,
// in UTC. step must be positive.
func BucketStart(t time.Time, step time.Duration) time.Time {
	n := t.UnixNano()
	r := n % int64(step)
	if r < 0 {
		r += int64(step)
	}
	return time.Unix(0, n-r).UTC()
}
