package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/store"
)

// A Backend is what Run needs to test a store.Store implementation.
type Backend struct {
	// Open returns a new, empty store with limits (zero fields: the
	// defaults). Run closes it.
	Open func(t *testing.T, limits store.Limits) store.Store
	// Reopen, if not nil, closes s and opens the same store again, which
	// must answer as s did. Run closes the store it returns.
	Reopen func(t *testing.T, s store.Store) store.Store
	// Partition is the granularity of the backend's DropBefore: after
	// DropBefore(t) it keeps every profile of time t or later and none
	// older than store.BucketStart(t, Partition). Zero means exactly t.
	Partition time.Duration
}

// Run tests the backend b: the same writes to a store of b and to a
// Reference must give byte-identical answers to every query. It takes a
// few seconds.
func Run(t *testing.T, b Backend) {
	t.Run("Answers", func(t *testing.T) { testAnswers(t, b) })
	t.Run("ConcurrentWriters", func(t *testing.T) { testConcurrent(t, b) })
	t.Run("DropBefore", func(t *testing.T) { testDropBefore(t, b) })
	t.Run("Limits", func(t *testing.T) { testLimits(t, b) })
	t.Run("Empty", func(t *testing.T) { testEmpty(t, b) })
}

// open opens a store of b that the test closes.
func open(t *testing.T, b Backend, limits store.Limits) *closer {
	c := &closer{s: b.Open(t, limits)}
	t.Cleanup(func() {
		if err := c.s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// A closer holds the store that the test closes at its end.
type closer struct{ s store.Store }

// write writes ps to s, batch by batch, failing the test on an error.
func write(t *testing.T, s store.Store, ps []store.Profile, batch int) {
	t.Helper()
	for len(ps) > 0 {
		n := min(batch, len(ps))
		if err := s.Write(context.Background(), ps[:n]...); err != nil {
			t.Fatalf("Write: %v", err)
		}
		ps = ps[n:]
	}
}

// compare asks the store and the reference every query and reports the
// answers that differ.
func compare(t testing.TB, got, want store.Reader, qs []query) {
	t.Helper()
	ctx := context.Background()
	failures := 0
	for _, q := range qs {
		g, w := q.answer(ctx, got), q.answer(ctx, want)
		if g == w {
			continue
		}
		if failures++; failures > 10 {
			t.Fatalf("more than 10 answers differ")
		}
		t.Errorf("%s: answer differs from the reference's at %s", q.name, reporttest.FirstDiff([]byte(g), []byte(w)))
	}
}

// withProfiles adds to qs a Profile query for every profile ref holds, and
// a Stats query.
func withProfiles(t *testing.T, ref *Reference, qs []query) []query {
	infos, err := ref.Profiles(context.Background(), store.Selection{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		qs = append(qs, query{"Profile " + in.ID, func(ctx context.Context, r store.Reader) string {
			return showProfile(r.Profile(ctx, in.ID))
		}})
	}
	return append(qs, query{"Stats", func(ctx context.Context, r store.Reader) string {
		st, err := r.Stats(ctx)
		if err != nil {
			return showError(err)
		}
		if (st.Bytes > 0) != (st.Profiles > 0) {
			return fmt.Sprintf("%d bytes for %d profiles", st.Bytes, st.Profiles)
		}
		return fmt.Sprintf("%d profiles, %d series, %d to %d", st.Profiles, st.Series, st.Oldest.UnixNano(), st.Newest.UnixNano())
	}})
}

func testAnswers(t *testing.T, b Backend) {
	ps := Fixture()
	ref := NewReference(store.Limits{})
	write(t, ref, ps, 1)
	s := open(t, b, store.Limits{})
	// The backend gets the profiles in another order and in batches, and
	// half of them with their labels out of order, which Write sorts.
	reversed := slices.Clone(ps)
	slices.Reverse(reversed)
	for i := 0; i < len(reversed); i += 2 {
		reversed[i].Labels = slices.Clone(reversed[i].Labels)
		slices.Reverse(reversed[i].Labels)
	}
	write(t, s.s, reversed, 3)
	qs := withProfiles(t, ref, queries(selections()))
	compare(t, s.s, ref, qs)
	if b.Reopen != nil && !t.Failed() {
		s.s = b.Reopen(t, s.s)
		compare(t, s.s, ref, qs)
	}
}

// testConcurrent writes the fixture from four goroutines while two others
// merge, up to 10 times each.
func testConcurrent(t *testing.T, b Backend) {
	ps := Fixture()
	ref := NewReference(store.Limits{})
	write(t, ref, ps, len(ps))
	s := open(t, b, store.Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	var writers, readers sync.WaitGroup
	errs := make(chan error, 6)
	for w := range 4 {
		writers.Go(func() {
			for i := w; i < len(ps); i += 4 {
				if err := s.s.Write(ctx, ps[i]); err != nil {
					errs <- fmt.Errorf("Write: %w", err)
					return
				}
			}
		})
	}
	for range 2 {
		readers.Go(func() {
			for range 10 {
				if ctx.Err() != nil {
					return
				}
				_, err := s.s.Merge(ctx, store.Selection{Type: kind("cpu")})
				if err != nil && !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
					errs <- fmt.Errorf("Merge while writing: %w", err)
					return
				}
			}
		})
	}
	writers.Wait()
	cancel()
	readers.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	sels := selections()
	var qs []query
	for _, name := range []string{"cpu", "cpu api", "allocs (mixed)", "all types"} {
		qs = append(qs, queries(map[string]store.Selection{name: sels[name]})...)
	}
	compare(t, s.s, ref, withProfiles(t, ref, qs))
}

// testDropBefore drops the first hour and a bit, and compares what is
// left.
func testDropBefore(t *testing.T, b Backend) {
	ps := Fixture()
	ref := NewReference(store.Limits{})
	write(t, ref, ps, len(ps))
	s := open(t, b, store.Limits{})
	write(t, s.s, ps, len(ps))
	cut := Epoch.Add(65 * time.Minute)
	ctx := context.Background()
	for _, st := range []store.Store{ref, s.s} {
		if err := st.DropBefore(ctx, cut); err != nil {
			t.Fatalf("DropBefore: %v", err)
		}
	}
	sels := selections()
	for name, sel := range sels {
		if sel.Start.Before(cut) {
			sel.Start = cut
		}
		sels[name] = sel
	}
	compare(t, s.s, ref, queries(sels))
	gone := store.Selection{End: cut}
	if b.Partition > 0 {
		gone.End = store.BucketStart(cut, b.Partition)
	}
	if left, err := s.s.Profiles(ctx, gone, 0); err != nil || len(left) > 0 {
		t.Errorf("after DropBefore(%v), %d profiles before %v (error %v), want none", cut, len(left), gone.End, err)
	}
}

// testLimits writes what breaks a limit, and checks that nothing of the
// batch is stored.
func testLimits(t *testing.T, b Backend) {
	ps := Fixture()
	big := ps[0]
	n := len(big.Profile.Sample)
	limits := store.Limits{MaxSeries: 3, MaxLabels: 5, MaxProfileSamples: n - 1}
	ref := NewReference(limits)
	s := open(t, b, limits)
	small := ps[0]
	small.Profile = small.Profile.Copy()
	small.Profile.Sample = small.Profile.Sample[:n/2]
	tooMany := small
	tooMany.Labels = tooMany.Labels.With("a", "1").With("b", "2")
	noService := small
	noService.Labels = small.Labels.Without(store.LabelService)
	noTime := small
	noTime.Time, noTime.Profile = time.Time{}, small.Profile.Copy()
	noTime.Profile.TimeNanos = 0
	invalid := small
	invalid.Profile = small.Profile.Copy()
	invalid.Profile.Sample[0].Value = nil
	series := func(i int) store.Profile {
		p := small
		p.Labels = p.Labels.With("instance", fmt.Sprint("x", i))
		return p
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		ps   []store.Profile
	}{
		{"a valid profile", []store.Profile{small}},
		{"over MaxProfileSamples", []store.Profile{big}},
		{"over MaxLabels", []store.Profile{tooMany}},
		{"no service_name", []store.Profile{noService}},
		{"no time", []store.Profile{noTime}},
		{"an invalid profile", []store.Profile{invalid}},
		{"no profile", []store.Profile{{Labels: small.Labels, Time: small.Time}}},
		{"a valid profile then an invalid one", []store.Profile{series(1), invalid}},
		{"two more series", []store.Profile{series(2), series(3)}},
		{"a profile of a known series", []store.Profile{series(2)}},
		{"a fourth series", []store.Profile{series(4)}},
	} {
		g, w := showError(s.s.Write(ctx, tc.ps...)), showError(ref.Write(ctx, tc.ps...))
		if g != w {
			t.Errorf("Write of %s: %s, want %s", tc.name, g, w)
		}
	}
	compare(t, s.s, ref, withProfiles(t, ref, nil))
}

// testEmpty asks an empty store.
func testEmpty(t *testing.T, b Backend) {
	s := open(t, b, store.Limits{})
	sels := selections()
	qs := queries(map[string]store.Selection{"cpu": sels["cpu"], "all types": sels["all types"]})
	compare(t, s.s, NewReference(store.Limits{}), withProfiles(t, NewReference(store.Limits{}), qs))
}
