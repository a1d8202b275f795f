package fleetgen_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

func encode(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func fleet(t *testing.T, c fleetgen.Config) *fleetgen.Fleet {
	t.Helper()
	f, err := fleetgen.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func profileOf(t *testing.T, f *fleetgen.Fleet, kind string, instance, index int) store.Profile {
	t.Helper()
	p, err := f.Profile(kind, instance, index)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDeterministic(t *testing.T) {
	a, b := fleet(t, fleetgen.Config{}), fleet(t, fleetgen.Config{})
	for _, kind := range []string{"cpu", "heap", "goroutine", "mutex", "block"} {
		pa, pb := profileOf(t, a, kind, 0, 7), profileOf(t, b, kind, 0, 7)
		if !bytes.Equal(encode(t, pa.Profile), encode(t, pb.Profile)) || !pa.Time.Equal(pb.Time) || pa.Labels.Compare(pb.Labels) != 0 {
			t.Errorf("%s: two fleets of one config give other profiles", kind)
		}
	}
	other := fleet(t, fleetgen.Config{Seed: 2})
	if bytes.Equal(encode(t, profileOf(t, a, "cpu", 0, 7).Profile), encode(t, profileOf(t, other, "cpu", 0, 7).Profile)) {
		t.Errorf("another seed gives the same profile")
	}
}

// TestRealistic checks the shape of the default fleet: thousands of
// distinct stacks, deep, with inlined frames and start lines; CPU profiles
// of about a thousand samples that share most of their stacks with the
// previous one; every kind picked by the selection of its store kind.
func TestRealistic(t *testing.T) {
	f := fleet(t, fleetgen.Config{})
	if n := f.Stacks(); n < 2500 {
		t.Errorf("%d distinct stacks, want about 3000", n)
	}
	var prev map[store.Hash]bool
	var shared, total int64 // samples of a profile, and of those in stacks of the previous one
	for i := range 6 {
		p := profileOf(t, f, "cpu", 0, i)
		sp, err := store.Split(p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		var samples int64
		stacks := map[store.Hash]bool{}
		for _, s := range sp.Samples {
			samples += s.Values[0]
			stacks[s.Stack] = true
			if prev[s.Stack] {
				shared += s.Values[0]
			}
		}
		if i > 0 {
			total += samples
		}
		prev = stacks
		if samples < 850 || samples > 1150 {
			t.Errorf("profile %d: %d samples, want about 1000", i, samples)
		}
	}
	if shared*10 < total*6 {
		t.Errorf("%d of %d samples are in stacks of the previous profile, want most", shared, total)
	}
	p := profileOf(t, f, "cpu", 0, 0).Profile
	depth, inlined, labelled := 0, 0, 0
	for _, s := range p.Sample {
		depth = max(depth, len(s.Location))
		if s.Label["handler"] != nil {
			labelled++
		}
	}
	for _, l := range p.Location {
		if len(l.Line) > 1 {
			inlined++
		}
	}
	if depth < 15 || inlined == 0 || labelled == 0 || p.Function[0].StartLine == 0 || p.Mapping[0].BuildID == "" {
		t.Errorf("depth %d, %d inlined locations, %d labelled samples, start line %d, build ID %q: want deep stacks, inlined frames, labels, start lines, a build ID",
			depth, inlined, labelled, p.Function[0].StartLine, p.Mapping[0].BuildID)
	}
}

// TestKinds checks that a selection of each store kind picks the fleet's
// profiles of that kind, and that they encode and parse.
func TestKinds(t *testing.T) {
	f := fleet(t, fleetgen.Config{})
	for _, kind := range []string{"cpu", "heap", "allocs", "goroutine", "mutex", "block"} {
		sp := profileOf(t, f, kind, 0, 3)
		k, _ := store.LookupKind(kind)
		if !slices.Contains(store.TypesOf(sp.Labels.Get(store.LabelName), sp.Profile), k.Type) {
			t.Errorf("%s: types %v lack the kind's %s", kind, store.TypesOf(sp.Labels.Get(store.LabelName), sp.Profile), k.Type)
		}
		if err := sp.Labels.Check(store.Limits{}); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
		if _, err := profile.ParseData(encode(t, sp.Profile)); err != nil {
			t.Errorf("%s: the encoded profile does not parse: %v", kind, err)
		}
	}
}

// TestPIE checks that instances of a PIE fleet load the binary at other
// addresses, and that their stacks still split into the same parts.
func TestPIE(t *testing.T) {
	f := fleet(t, fleetgen.Config{PIE: true, Instances: 2, VersionEvery: 2})
	a, b := profileOf(t, f, "cpu", 0, 0), profileOf(t, f, "cpu", 1, 0)
	if a.Profile.Mapping[0].Start == b.Profile.Mapping[0].Start {
		t.Fatalf("both instances load the binary at %#x", a.Profile.Mapping[0].Start)
	}
	sa, _ := store.Split(a.Profile)
	sb, _ := store.Split(b.Profile)
	common := 0
	for h := range sa.Parts.Stacks {
		if _, ok := sb.Parts.Stacks[h]; ok {
			common++
		}
	}
	if common < len(sa.Parts.Stacks)/3 {
		t.Errorf("%d of %d stacks in common between instances, want many", common, len(sa.Parts.Stacks))
	}
	if v := profileOf(t, f, "cpu", 0, 2); v.Labels.Get("version") == a.Labels.Get("version") || v.Profile.Mapping[0].BuildID == a.Profile.Mapping[0].BuildID {
		t.Errorf("profile 2 is of version %s, build ID %s, as profile 0", v.Labels.Get("version"), v.Profile.Mapping[0].BuildID)
	}
}

func TestBadConfig(t *testing.T) {
	if _, err := fleetgen.New(fleetgen.Config{Functions: 3}); err == nil {
		t.Errorf("New accepted 3 functions")
	}
	f := fleet(t, fleetgen.Config{})
	if _, err := f.Profile("nope", 0, 0); err == nil {
		t.Errorf("Profile accepted kind nope")
	}
}
