package storetest

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/store"
)

func reference(t *testing.T) (*Reference, []store.Profile) {
	ps := Fixture()
	ref := NewReference(store.Limits{})
	write(t, ref, ps, 4)
	return ref, ps
}

// byHand returns the profiles of ps that a selection of service svc (any
// when ""), type k and range [start, end) picks, checked field by field
// rather than with Selection.Picks; for a mixed selection, each reduced to
// k's sample type. They are in store.Order, time then ID, the order in
// which the first profile's header fields win.
func byHand(t *testing.T, ps []store.Profile, svc string, k store.ProfileType, start, end time.Time, mixed bool) []*profile.Profile {
	type picked struct {
		p  *profile.Profile
		at store.Order
	}
	var out []picked
	for _, p := range ps {
		at := p.Time
		if at.IsZero() {
			at = time.Unix(0, p.Profile.TimeNanos)
		}
		if svc != "" && p.Labels.Get("service_name") != svc || p.Labels.Get("__name__") != k.Name ||
			at.Before(start) || !at.Before(end) || p.Profile.PeriodType.Type != k.PeriodType {
			continue
		}
		i := slices.IndexFunc(p.Profile.SampleType, func(vt *profile.ValueType) bool { return vt.Type == k.SampleType && vt.Unit == k.SampleUnit })
		if i < 0 {
			continue
		}
		sp, err := store.Split(p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		q := p.Profile.Copy()
		if mixed {
			q.SampleType = q.SampleType[i : i+1]
			for _, s := range q.Sample {
				s.Value = s.Value[i : i+1]
			}
		}
		out = append(out, picked{q, store.OrderOf(at, store.ProfileID(p.Labels, at, sp))})
	}
	slices.SortFunc(out, func(a, b picked) int {
		if a.at.Before(b.at) {
			return -1
		}
		return 1
	})
	profiles := make([]*profile.Profile, len(out))
	for i, x := range out {
		profiles[i] = x.p
	}
	return profiles
}

// reports returns top by function and by line, and tags, for every sample
// type of p, through perflab's pprof-compatible reports.
func reports(t *testing.T, p *profile.Profile) string {
	var b bytes.Buffer
	for i := range p.SampleType {
		o := report.DefaultOptions()
		o.SampleIndex, o.NoTrim = strconv.Itoa(i), true
		for _, k := range []struct {
			kind report.Kind
			g    string
		}{{report.Top, "functions"}, {report.Top, "lines"}, {report.Tags, ""}} {
			o.Granularity = k.g
			if err := report.Generate(&b, p, k.kind, o); err != nil {
				t.Fatal(err)
			}
		}
	}
	return b.String()
}

// TestReferenceMergeExact checks the Reference's merges against
// profile.Merge of the same profiles, picked by hand: their top, top
// -lines and tags are the same.
func TestReferenceMergeExact(t *testing.T) {
	ref, ps := reference(t)
	end := Epoch.Add(24 * time.Hour)
	for _, tc := range []struct {
		name, svc  string
		k          store.ProfileType
		start, end time.Time
		mixed      bool
	}{
		{"cpu", "", kind("cpu"), Epoch, end, false},
		{"cpu db from 30m to 1h30", "db", kind("cpu"), Epoch.Add(30 * time.Minute), Epoch.Add(90 * time.Minute), false},
		{"heap", "", kind("heap"), Epoch, end, false},
		{"allocs, mixed", "", kind("allocs"), Epoch, end, true},
		{"goroutine", "", kind("goroutine"), Epoch, end, false},
	} {
		sel := store.Selection{Type: tc.k, Start: tc.start, End: tc.end}
		if tc.svc != "" {
			sel.Selector = sel1(`{service_name="` + tc.svc + `"}`)
		}
		got, err := ref.Merge(context.Background(), sel)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want, err := profile.Merge(byHand(t, ps, tc.svc, tc.k, tc.start, tc.end, tc.mixed))
		if err != nil {
			t.Fatalf("%s: profile.Merge: %v", tc.name, err)
		}
		if g, w := reports(t, got), reports(t, want); g != w {
			t.Errorf("%s: reports differ from profile.Merge's at %s", tc.name, reporttest.FirstDiff([]byte(g), []byte(w)))
		}
		if got.DefaultSampleType != tc.k.SampleType {
			t.Errorf("%s: default sample type %q, want %q", tc.name, got.DefaultSampleType, tc.k.SampleType)
		}
	}
}

func sel1(s string) store.Selector { return sel(s) }

// TestReferenceTotals checks Totals against sums made by hand from the
// written profiles.
func TestReferenceTotals(t *testing.T) {
	ref, ps := reference(t)
	k := kind("cpu")
	want := map[string]map[int64]int64{} // instance → bucket → total
	for _, p := range ps {
		if p.Labels.Get("__name__") != "process_cpu" {
			continue
		}
		bucket := time.Unix(0, p.Profile.TimeNanos).Truncate(time.Hour).UnixNano()
		inst := p.Labels.Get("instance")
		if want[inst] == nil {
			want[inst] = map[int64]int64{}
		}
		for _, s := range p.Profile.Sample {
			want[inst][bucket] += s.Value[1]
		}
	}
	got, err := ref.Totals(context.Background(), store.TotalsQuery{Selection: store.Selection{Type: k}, Step: time.Hour, GroupBy: []string{"instance"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d series, want %d", len(got), len(want))
	}
	for i, ts := range got {
		inst := ts.Labels.Get("instance")
		if i > 0 && got[i-1].Labels.Compare(ts.Labels) >= 0 {
			t.Errorf("series not sorted by labels: %s after %s", ts.Labels, got[i-1].Labels)
		}
		if len(ts.Points) != len(want[inst]) {
			t.Errorf("%s: %d points, want %d", inst, len(ts.Points), len(want[inst]))
		}
		for _, p := range ts.Points {
			if v := want[inst][p.Time.UnixNano()]; v != p.Value {
				t.Errorf("%s at %v: %d, want %d", inst, p.Time, p.Value, v)
			}
		}
	}
}

// TestReferenceLists checks the order rules of the listing methods and
// Profile's answer.
func TestReferenceLists(t *testing.T) {
	ref, ps := reference(t)
	ctx := context.Background()
	infos, err := ref.Profiles(ctx, store.Selection{}, 0)
	if err != nil || len(infos) != len(ps) {
		t.Fatalf("Profiles: %d, %v; want %d", len(infos), err, len(ps))
	}
	for i := 1; i < len(infos); i++ {
		if infos[i].Time.After(infos[i-1].Time) || infos[i].Time.Equal(infos[i-1].Time) && infos[i].ID < infos[i-1].ID {
			t.Fatalf("Profiles not latest first, then by ID: %v after %v", infos[i], infos[i-1])
		}
	}
	if got, _ := ref.Profiles(ctx, store.Selection{}, 3); !slices.EqualFunc(got, infos[:3], func(a, b store.ProfileInfo) bool { return a.ID == b.ID }) {
		t.Errorf("Profiles with limit 3 are not the first 3")
	}
	p, err := ref.Profile(ctx, infos[0].ID)
	if err != nil || p.TimeNanos != infos[0].Time.UnixNano() {
		t.Errorf("Profile(%s): %v; want the profile of %v", infos[0].ID, err, infos[0].Time)
	}
	if _, err := ref.Profile(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Profile(nope): %v, want ErrNotFound", err)
	}
	values, _ := ref.LabelValues(ctx, store.Selection{}, "version")
	if !slices.Equal(values, []string{"1.42.0", "1.43.1"}) {
		t.Errorf("LabelValues(version) = %q", values)
	}
	types, _ := ref.ProfileTypes(ctx, store.Selection{Type: kind("cpu")})
	var ids []string
	for _, tp := range types {
		ids = append(ids, tp.ID())
	}
	if len(ids) != 7 || !slices.IsSorted(ids) {
		t.Errorf("ProfileTypes = %q, want 7 sorted", ids)
	}
	if _, err := ref.Merge(ctx, store.Selection{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Merge without a type: %v, want ErrInvalid", err)
	}
}

// TestRunOnReference runs the suite on the Reference itself.
func TestRunOnReference(t *testing.T) {
	Run(t, Backend{
		Open:   func(t *testing.T, limits store.Limits) store.Store { return NewReference(limits) },
		Reopen: func(t *testing.T, s store.Store) store.Store { return s },
	})
}

// A recorder is a testing.TB that remembers whether the test failed.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(string, ...any) {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// The faulty stores below break one rule each.
type (
	inclusiveEnd struct{ *Reference } // picks profiles at End too
	oldestFirst  struct{ *Reference } // lists profiles oldest first
)

func (s inclusiveEnd) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	if !sel.End.IsZero() {
		sel.End = sel.End.Add(time.Nanosecond)
	}
	return s.Reference.Merge(ctx, sel)
}

func (s oldestFirst) Profiles(ctx context.Context, sel store.Selection, limit int) ([]store.ProfileInfo, error) {
	infos, err := s.Reference.Profiles(ctx, sel, 0)
	slices.Reverse(infos)
	if limit > 0 && len(infos) > limit {
		infos = infos[:limit]
	}
	return infos, err
}

// TestSuiteCatchesFaults checks that the suite's comparison fails on
// stores that break a rule.
func TestSuiteCatchesFaults(t *testing.T) {
	ref, ps := reference(t)
	all := selections()
	for name, tc := range map[string]struct {
		faulty store.Reader
		sel    string
	}{
		"inclusive End": {inclusiveEnd{NewReference(store.Limits{})}, "cpu until mid"},
		"oldest first":  {oldestFirst{NewReference(store.Limits{})}, "cpu api"},
	} {
		faulty := tc.faulty
		s := faulty.(interface {
			Write(context.Context, ...store.Profile) error
		})
		if err := s.Write(context.Background(), ps...); err != nil {
			t.Fatal(err)
		}
		r := &recorder{TB: t}
		done := make(chan bool)
		go func() {
			defer close(done)
			compare(r, faulty, ref, queries(map[string]store.Selection{tc.sel: all[tc.sel]}))
		}()
		<-done
		if !r.failed {
			t.Errorf("the suite did not catch a store with %s", name)
		}
	}
}
