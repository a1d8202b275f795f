package store

import (
	"fmt"
	"slices"
	"time"
)

// A Prepared profile is one that a Write checked and split, as every
// store checks and splits them (see Prepare).
type Prepared struct {
	// Labels are the profile's series, sorted.
	Labels Labels
	// Time is the store's time of the profile, UTC.
	Time  time.Time
	Split *SplitProfile
	// ID is the profile's ProfileID.
	ID string
}

// Prepare checks p as a store's Write must, in this order, and splits it:
// its labels, sorted, must pass Labels.Check (else an error wrapping
// ErrLimit); it must have a Profile (ErrInvalid), no more samples than
// limits.MaxProfileSamples (ErrLimit), a Time or else a TimeNanos
// (ErrInvalid), and Split must take it (ErrInvalid). The series limit,
// which depends on what the store holds, is the store's to check.
func Prepare(p Profile, limits Limits) (*Prepared, error) {
	limits = limits.WithDefaults()
	labels := slices.Clone(p.Labels).Sort()
	if err := labels.Check(limits); err != nil {
		return nil, err
	}
	if p.Profile == nil {
		return nil, fmt.Errorf("no profile: %w", ErrInvalid)
	}
	if n := len(p.Profile.Sample); n > limits.MaxProfileSamples {
		return nil, fmt.Errorf("%d samples, more than the limit of %d: %w", n, limits.MaxProfileSamples, ErrLimit)
	}
	t := p.Time
	if t.IsZero() {
		if p.Profile.TimeNanos == 0 {
			return nil, fmt.Errorf("profile has no time: %w", ErrInvalid)
		}
		t = time.Unix(0, p.Profile.TimeNanos)
	}
	t = time.Unix(0, t.UnixNano()).UTC()
	sp, err := Split(p.Profile)
	if err != nil {
		return nil, err
	}
	return &Prepared{Labels: labels, Time: t, Split: sp, ID: ProfileID(labels, t, sp)}, nil
}
