package dirstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// days is the start of the profiles of the multi-day tests: 18:00 UTC,
// so that their three days and a quarter cross four partitions.
var days = time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC)

// multiDay returns the profiles of two services over three days and a
// quarter: api (two PIE instances, a version every 12 hours) and db, a
// CPU profile every 20 minutes, heap profiles of api every hour, with
// small programs so that the test stays fast.
func multiDay(t testing.TB) []store.Profile {
	t.Helper()
	ps, err := multiDayOnce()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]store.Profile, len(ps))
	for i, p := range ps { // the tests' own, as stores keep none
		p.Labels = slices.Clone(p.Labels)
		out[i] = p
	}
	return out
}

var multiDayOnce = sync.OnceValues(func() ([]store.Profile, error) {
	var ps []store.Profile
	for _, c := range []fleetgen.Config{
		{Seed: 5, Service: "api", Instances: 2, PIE: true, Versions: []string{"1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"}, VersionEvery: 36},
		{Seed: 6, Service: "db", Instances: 1},
	} {
		c.Functions, c.Stacks, c.MaxDepth, c.Samples = 40, 120, 10, 60
		c.Interval, c.Start = 20*time.Minute, days
		f, err := fleetgen.New(c)
		if err != nil {
			return nil, err
		}
		for i := range 3*72 + 18 {
			for inst := range c.Instances {
				for _, kind := range []string{"cpu", "heap"} {
					if kind == "heap" && (i%3 != 0 || c.Service != "api") {
						continue
					}
					p, err := f.Profile(kind, inst, i)
					if err != nil {
						return nil, err
					}
					ps = append(ps, p)
				}
			}
		}
	}
	return ps, nil
})

// TestRangesMatchReference writes three days of profiles to a store,
// compacted and merged as the background would, and to the Reference,
// and compares their answers on random ranges: merges, totals with and
// without focus, lists. It checks that the store took rollups where it
// could. About 3 s.
func TestRangesMatchReference(t *testing.T) {
	ctx := context.Background()
	ps := multiDay(t)
	ref := storetest.NewReference(store.Limits{})
	s := openStore(t, t.TempDir(), Options{})
	for i := 0; i < len(ps); i += 40 {
		batch := ps[i:min(i+40, len(ps))]
		if err := ref.Write(ctx, batch...); err != nil {
			t.Fatal(err)
		}
		if err := s.Write(ctx, batch...); err != nil {
			t.Fatal(err)
		}
		if i+40 < len(ps)-40 {
			if err := s.Compact(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		sel := randomSelection(r)
		name := fmt.Sprintf("selection %d: %s %s [%v, %v)", i, sel.Type, sel.Selector, sel.Start.Format(time.DateTime), sel.End.Format(time.DateTime))
		compareAnswers(t, name, s, ref, sel)
	}
	if s.reads.rollups.Load() == 0 {
		t.Errorf("no rollup read")
	}
	// A past day whole: its merge takes a rollup of each series and
	// version, and not one profile.
	s.reads.rollups.Store(0)
	s.reads.profiles.Store(0)
	day := days.Add(6 * time.Hour)
	sel := store.Selection{Type: kindOf(t, "cpu"), Start: day, End: day.Add(24 * time.Hour)}
	if _, err := s.Merge(ctx, sel); err != nil {
		t.Fatal(err)
	}
	series := map[string]bool{} // each version of each instance
	for _, p := range ps {
		if sel.Contains(p.Time) && p.Labels.Get(store.LabelName) == sel.Type.Name {
			series[p.Labels.String()] = true
		}
	}
	if p, r := s.reads.profiles.Load(), s.reads.rollups.Load(); p != 0 || r != int64(len(series)) {
		t.Errorf("a day's merge read %d profiles and %d rollups, want %d rollups alone", p, r, len(series))
	}
	compareAnswers(t, "a whole day", s, ref, sel)
}

func kindOf(t testing.TB, short string) store.ProfileType {
	k, ok := store.LookupKind(short)
	if !ok {
		t.Fatalf("no kind %s", short)
	}
	return k.Type
}

// randomSelection returns a selection of a random type, selector and
// range: its ends on hours, days or any nanosecond.
func randomSelection(r *rand.Rand) store.Selection {
	types := []string{"cpu", "heap", "allocs"}
	selectors := []string{``, `{service_name="api"}`, `{service_name="db"}`, `{instance="api-1"}`, `{version=~"1\\.[0-3]"}`}
	k, _ := store.LookupKind(types[r.IntN(len(types))])
	sel, _ := store.ParseSelector(selectors[r.IntN(len(selectors))])
	point := func() time.Time {
		t := days.Add(time.Duration(r.Int64N(int64(80 * time.Hour))))
		switch r.IntN(3) {
		case 0:
			return t.Truncate(time.Hour)
		case 1:
			return t.Truncate(24 * time.Hour)
		}
		return t
	}
	a, b := point(), point()
	if b.Before(a) {
		a, b = b, a
	}
	s := store.Selection{Type: k.Type, Selector: sel, Start: a, End: b}
	switch r.IntN(6) {
	case 0:
		s.Start = time.Time{}
	case 1:
		s.End = time.Time{}
	}
	return s
}

// compareAnswers compares what s and ref answer about sel.
func compareAnswers(t *testing.T, name string, s *Store, ref *storetest.Reference, sel store.Selection) {
	t.Helper()
	ctx := context.Background()
	got, gerr := s.Merge(ctx, sel)
	want, werr := ref.Merge(ctx, sel)
	if g, w := encodeProfile(t, got, gerr), encodeProfile(t, want, werr); !bytes.Equal(g, w) {
		t.Errorf("%s: Merge differs from the reference's at %s", name, reporttest.FirstDiff(g, w))
	}
	for _, tq := range []store.TotalsQuery{
		{Selection: sel, Step: time.Hour, GroupBy: []string{"instance"}},
		{Selection: sel, Step: 3 * time.Hour, Focus: regexp.MustCompile(`runtime\.`)},
		{Selection: sel, Step: 24 * time.Hour, Focus: regexp.MustCompile(`/internal/`), GroupBy: []string{"version"}},
		{Selection: sel, Step: 7 * time.Minute, Focus: regexp.MustCompile(`^/app/api$`)},
	} {
		g, gerr := s.Totals(ctx, tq)
		w, werr := ref.Totals(ctx, tq)
		if fmt.Sprint(g, gerr) != fmt.Sprint(w, werr) {
			t.Errorf("%s: Totals step %v focus %v: got %v, %v; want %v, %v", name, tq.Step, tq.Focus, g, gerr, w, werr)
		}
	}
	for _, ask := range []func(store.Reader) any{
		func(r store.Reader) any { v, err := r.Profiles(ctx, sel, 7); return fmt.Sprint(v, err) },
		func(r store.Reader) any { v, err := r.ProfileTypes(ctx, sel); return fmt.Sprint(v, err) },
		func(r store.Reader) any { v, err := r.Series(ctx, sel); return fmt.Sprint(v, err) },
		func(r store.Reader) any { v, err := r.LabelValues(ctx, sel, "version"); return fmt.Sprint(v, err) },
	} {
		if g, w := ask(s), ask(ref); g != w {
			t.Errorf("%s: got %v, want %v", name, g, w)
		}
	}
}

// encodeProfile returns the encoding of p, or of the kind of err.
func encodeProfile(t testing.TB, p *profile.Profile, err error) []byte {
	if err != nil {
		for _, e := range []error{store.ErrNotFound, store.ErrInvalid} {
			if errors.Is(err, e) {
				return []byte(e.Error())
			}
		}
		return []byte(err.Error())
	}
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
