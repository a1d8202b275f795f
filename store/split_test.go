package store_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/store"
)

func TestSplitInvalid(t *testing.T) {
	bad := reporttest.OneSample("main.go")
	bad.Sample[0].Value = append(bad.Sample[0].Value, 1)
	noTypes := reporttest.OneSample("main.go")
	noTypes.SampleType, noTypes.Sample = nil, nil
	for _, p := range []*profile.Profile{bad, noTypes} {
		if _, err := store.Split(p); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("Split of an invalid profile: %v, want ErrInvalid", err)
		}
	}
}

// composeOne returns the composed form of p alone, as Reader.Profile
// returns a stored profile.
func composeOne(p *profile.Profile) (*profile.Profile, *store.SplitProfile, error) {
	sp, err := store.Split(p)
	if err != nil {
		return nil, nil, err
	}
	at := time.Unix(0, p.TimeNanos)
	m := store.MergeHeader(&sp.Header, store.OrderOf(at, store.ProfileID(nil, at, sp)))
	q, err := store.Compose(context.Background(), &m, store.ProfileType{}, sp.Samples, sp.Parts)
	return q, sp, err
}

// FuzzSplitCompose checks that any profile that parses either splits or
// is refused with ErrInvalid, and that a split profile composes back into
// a valid profile with profile.Merge's totals, whose own split is the same.
func FuzzSplitCompose(f *testing.F) {
	f.Add(encode(f, reporttest.OneSample("main.go")))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := profile.ParseData(data)
		if err != nil {
			return
		}
		q, sp, err := composeOne(p)
		if err != nil {
			if sp == nil && errors.Is(err, store.ErrInvalid) {
				return
			}
			t.Fatalf("compose: %v", err)
		}
		if err := q.CheckValid(); err != nil {
			t.Fatalf("composed profile not valid: %v", err)
		}
		want, err := profile.Merge([]*profile.Profile{p})
		if err != nil {
			return // profile.Merge refuses it; Compose need not.
		}
		if g, w := totals(q), totals(want); !slices.Equal(g, w) {
			t.Fatalf("totals %v, profile.Merge's %v", g, w)
		}
		again, sp2, err := composeOne(q)
		if err != nil {
			t.Fatalf("composing the composed profile: %v", err)
		}
		if !slices.EqualFunc(sp.Samples, sp2.Samples, func(a, b store.Sample) bool {
			return a.Stack == b.Stack && a.Labels == b.Labels && slices.Equal(a.Values, b.Values)
		}) {
			t.Fatalf("the composed profile splits into other samples")
		}
		if !bytes.Equal(encode(t, q), encode(t, again)) {
			t.Fatalf("composing the composed profile gives other bytes")
		}
	})
}

// TestComposeUnitsPerValue checks that a numeric label whose stored units
// are fewer than its values (a store's bad record) still composes into a
// profile that profile.Write can encode.
func TestComposeUnitsPerValue(t *testing.T) {
	p := reporttest.OneSample("main.go")
	p.Sample[0].NumLabel = map[string][]int64{"bytes": {1, 2}}
	p.Sample[0].NumUnit = map[string][]string{"bytes": {"bytes", "bytes"}}
	sp, err := store.Split(p)
	if err != nil {
		t.Fatal(err)
	}
	for h, ls := range sp.Parts.LabelSets {
		ls.Numbers[0].Units = ls.Numbers[0].Units[:1]
		sp.Parts.LabelSets[h] = ls
	}
	m := store.MergeHeader(&sp.Header, store.Order{})
	q, err := store.Compose(context.Background(), &m, store.ProfileType{}, sp.Samples, sp.Parts)
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Sample[0].NumUnit["bytes"]; len(got) != 2 {
		t.Errorf("units %q, want one for each of 2 values", got)
	}
	encode(t, q)
}
