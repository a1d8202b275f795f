package store_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/store"
)

var cpuType = store.ProfileType{Name: "process_cpu", SampleType: "cpu", SampleUnit: "nanoseconds", PeriodType: "cpu", PeriodUnit: "nanoseconds"}

// variants returns n profiles made from base as a fleet would write them:
// each keeps a random share of base's samples with new values, some have
// their mappings loaded elsewhere (PIE), pprof labels, comments, and their
// tables in another order with other IDs. They are in time order.
func variants(base *profile.Profile, n int, seed uint64) []*profile.Profile {
	r := rand.New(rand.NewPCG(seed, 7))
	ps := make([]*profile.Profile, n)
	for i := range ps {
		p := base.Copy()
		p.TimeNanos = base.TimeNanos + int64(i)*10e9
		p.DurationNanos = 10e9 + int64(r.IntN(1000))
		p.Period = base.Period + int64(r.IntN(3))
		if i%3 == 1 {
			p.Comments = []string{"instance " + strconv.Itoa(i%2), "perflab"}
		}
		p.Sample = slices.DeleteFunc(p.Sample, func(*profile.Sample) bool { return r.IntN(3) == 0 })
		for _, s := range p.Sample {
			for j := range s.Value {
				s.Value[j] = int64(r.IntN(5)) * 10_000_000
			}
			switch r.IntN(4) {
			case 0:
				s.Label = map[string][]string{"route": {"/api/" + strconv.Itoa(r.IntN(3))}}
			case 1:
				s.NumLabel = map[string][]int64{"bytes": {int64(r.IntN(3)) << 10}}
				s.NumUnit = map[string][]string{"bytes": {"bytes"}}
			}
		}
		if i%2 == 1 {
			relocate(p, uint64(i)<<32)
		}
		renumber(p, r)
		ps[i] = p
	}
	return ps
}

// relocate moves p's mappings by delta, as a PIE binary or a shared
// library loaded elsewhere is.
func relocate(p *profile.Profile, delta uint64) {
	for _, m := range p.Mapping {
		m.Start += delta
		m.Limit += delta
	}
	for _, l := range p.Location {
		if l.Mapping != nil {
			l.Address += delta
		}
	}
}

// renumber shuffles p's locations and functions and gives them new IDs.
func renumber(p *profile.Profile, r *rand.Rand) {
	r.Shuffle(len(p.Location), func(i, j int) { p.Location[i], p.Location[j] = p.Location[j], p.Location[i] })
	r.Shuffle(len(p.Function), func(i, j int) { p.Function[i], p.Function[j] = p.Function[j], p.Function[i] })
	for i, l := range p.Location {
		l.ID = uint64(2*i + 5)
	}
	for i, f := range p.Function {
		f.ID = uint64(3*i + 2)
	}
}

// composeAll splits ps (stored in that order, 10 s apart) and composes
// their merge, adding headers and samples in the order of perm, as a
// store does: the merged header first, which tells whether values go into
// one column (profiles of different sample types), then the samples.
func composeAll(t testing.TB, ps []*profile.Profile, perm []int, typ store.ProfileType) *profile.Profile {
	t.Helper()
	parts := store.NewParts()
	var m store.MergedHeader
	splits := make([]*store.SplitProfile, len(ps))
	for _, i := range perm {
		sp, err := store.Split(ps[i])
		if err != nil {
			t.Fatal(err)
		}
		splits[i] = sp
		at := time.Unix(1_800_000_000+int64(i)*10, 0)
		h := store.MergeHeader(&sp.Header, store.OrderOf(at, store.ProfileID(nil, at, sp)))
		m.Add(&h)
		parts.Add(sp.Parts)
	}
	var samples []store.Sample
	for _, i := range perm {
		col := m.Column(&splits[i].Header, typ)
		for _, s := range splits[i].Samples {
			if col >= 0 {
				s.Values = []int64{s.Values[col]}
			}
			samples = append(samples, s)
		}
	}
	p, err := store.Compose(context.Background(), &m, typ, samples, parts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// reports returns what pprof shows of p for every sample type: top by
// function, by line and by address, and tags.
func reports(t testing.TB, p *profile.Profile) string {
	t.Helper()
	var b bytes.Buffer
	for i := range p.SampleType {
		o := report.DefaultOptions()
		o.SampleIndex = strconv.Itoa(i)
		o.NoTrim = true
		for _, g := range []string{"functions", "lines", "addresses"} {
			o.Granularity = g
			if err := report.Generate(&b, p, report.Top, o); err != nil {
				t.Fatal(err)
			}
		}
		o.Granularity = ""
		if err := report.Generate(&b, p, report.Tags, o); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func totals(p *profile.Profile) []int64 {
	sums := make([]int64, len(p.SampleType))
	for _, s := range p.Sample {
		for i, v := range s.Value {
			sums[i] += v
		}
	}
	return sums
}

func encode(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestComposeMatchesMerge is the exactness test: the composed merge of
// split profiles reports what profile.Merge of the same profiles reports,
// and its bytes depend neither on the order of the writes nor on that of
// the samples.
func TestComposeMatchesMerge(t *testing.T) {
	cfg := profgen.Small
	cfg.Samples, cfg.Locations = 600, 500
	for seed := range uint64(3) {
		cfg.Seed = seed + 1
		base, err := profgen.Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ps := variants(base, 6, seed)
		want, err := profile.Merge(ps)
		if err != nil {
			t.Fatal(err)
		}
		perm := []int{0, 1, 2, 3, 4, 5}
		got := composeAll(t, ps, perm, cpuType)
		if err := got.CheckValid(); err != nil {
			t.Fatalf("seed %d: composed profile is not valid: %v", seed, err)
		}
		if g, w := totals(got), totals(want); !slices.Equal(g, w) {
			t.Errorf("seed %d: totals %v, profile.Merge's %v", seed, g, w)
		}
		if g, w := reports(t, got), reports(t, want); g != w {
			t.Errorf("seed %d: reports differ from profile.Merge's at %s", seed, reporttest.FirstDiff([]byte(g), []byte(w)))
		}
		first := encode(t, got)
		rand.New(rand.NewPCG(seed, 1)).Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if again := encode(t, composeAll(t, ps, perm, cpuType)); !bytes.Equal(first, again) {
			t.Errorf("seed %d: composing in the order %v gives other bytes", seed, perm)
		}
	}
}

// TestComposeMatchesMergeFleet is the exactness test on realistic input:
// a fleet of three PIE instances whose version changes twice, 12 CPU
// profiles each.
func TestComposeMatchesMergeFleet(t *testing.T) {
	f, err := fleetgen.New(fleetgen.Config{Instances: 3, PIE: true, VersionEvery: 4, Samples: 400})
	if err != nil {
		t.Fatal(err)
	}
	var ps []*profile.Profile
	if err := f.Each("cpu", 12, func(p store.Profile) error {
		ps = append(ps, p.Profile)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want, err := profile.Merge(ps)
	if err != nil {
		t.Fatal(err)
	}
	perm := make([]int, len(ps))
	for i := range perm {
		perm[i] = len(ps) - 1 - i
	}
	got := composeAll(t, ps, perm, cpuType)
	if g, w := reports(t, got), reports(t, want); g != w {
		t.Errorf("reports differ from profile.Merge's at %s", reporttest.FirstDiff([]byte(g), []byte(w)))
	}
	if g, w := totals(got), totals(want); !slices.Equal(g, w) {
		t.Errorf("totals %v, profile.Merge's %v", g, w)
	}
	// The oracle itself: go tool pprof reads both alike.
	dir := t.TempDir()
	reporttest.WriteProfile(t, got, filepath.Join(dir, "got.pb.gz"))
	reporttest.WriteProfile(t, want, filepath.Join(dir, "want.pb.gz"))
	for _, args := range [][]string{{"-top", "-lines"}, {"-tags"}} {
		g, _, err := reporttest.RunPprof(t, dir, nil, append(args, "got.pb.gz")...)
		if err != nil {
			t.Fatalf("pprof %v: %v", args, err)
		}
		w, _, err := reporttest.RunPprof(t, dir, nil, append(args, "want.pb.gz")...)
		if err != nil {
			t.Fatalf("pprof %v: %v", args, err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("pprof %v differs at %s", args, reporttest.FirstDiff(g, w))
		}
	}
}
