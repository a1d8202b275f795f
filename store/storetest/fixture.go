package storetest

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/store"
)

// Epoch is the time of the first profile of Fixture: 2026-11-20 00:00 UTC.
var Epoch = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// Fixture returns the profiles Run writes, in time order: two services
// (api, with a version label that changes half way; db, without one), two
// instances each (the second's binary loaded elsewhere, as PIE binaries
// are), a CPU profile of each instance every 10 minutes for two hours,
// heap profiles of api's first instance every 30 minutes and one pushed
// with two sample types only, goroutine profiles of db, pprof labels on
// some samples, a profile written twice at the same time, and one whose
// time is its TimeNanos. The same call gives the same profiles.
func Fixture() []store.Profile {
	r := rand.New(rand.NewPCG(20, 26))
	bases := map[string]*profile.Profile{"api": generate(1), "db": generate(2)}
	var ps []store.Profile
	for slot := range 12 {
		at := Epoch.Add(time.Duration(slot) * 10 * time.Minute)
		for _, svc := range []string{"api", "db"} {
			for inst := range 2 {
				labels := store.NewLabels(store.LabelName, "process_cpu", store.LabelService, svc, "instance", svc+"-"+strconv.Itoa(inst))
				if svc == "api" {
					labels = labels.With("version", []string{"1.42.0", "1.43.1"}[slot/6])
				}
				p := vary(bases[svc], r, inst)
				p.TimeNanos = at.UnixNano()
				ps = append(ps, store.Profile{Labels: labels, Time: at, Profile: p})
			}
		}
		if slot%3 == 0 {
			ps = append(ps, memory(bases["api"], r, at, "alloc_objects", "alloc_space", "inuse_objects", "inuse_space"))
		}
		if slot%6 == 0 {
			ps = append(ps, goroutines(bases["db"], r, at))
		}
	}
	ps = append(ps, memory(bases["api"], r, Epoch.Add(55*time.Minute), "alloc_objects", "alloc_space"))
	twice := ps[0] // api-0's first CPU profile
	twice.Profile = twice.Profile.Copy()
	ps = append(ps, twice)
	ps[7].Time = time.Time{} // its TimeNanos tells
	slices.SortStableFunc(ps, func(a, b store.Profile) int { return cmp.Compare(a.Profile.TimeNanos, b.Profile.TimeNanos) })
	return ps
}

// generate returns a small generated CPU profile.
func generate(seed uint64) *profile.Profile {
	cfg := profgen.Small
	cfg.Seed, cfg.Samples, cfg.Locations, cfg.Functions, cfg.MaxDepth = seed, 150, 200, 80, 16
	p, err := profgen.Generate(cfg)
	if err != nil {
		panic(err) // a fixed configuration: cannot fail
	}
	return p
}

// vary returns a copy of base with a random share of its samples and new
// values, some with a route label; inst 1 has its mappings moved.
func vary(base *profile.Profile, r *rand.Rand, inst int) *profile.Profile {
	p := base.Copy()
	p.DurationNanos = 10e9
	p.Sample = slices.DeleteFunc(p.Sample, func(*profile.Sample) bool { return r.IntN(4) == 0 })
	for _, s := range p.Sample {
		for i := range s.Value {
			s.Value[i] = int64(1+r.IntN(4)) * []int64{1, p.Period}[i]
		}
		if r.IntN(5) == 0 {
			s.Label = map[string][]string{"route": {"/v1/" + strconv.Itoa(r.IntN(3))}}
		}
	}
	if inst == 1 {
		delta := uint64(0x7f00_0000_0000)
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
	return p
}

// memory returns a heap profile of api's first instance with the given
// sample types, made from a CPU profile.
func memory(base *profile.Profile, r *rand.Rand, at time.Time, types ...string) store.Profile {
	p := vary(base, r, 0)
	p.TimeNanos, p.DurationNanos = at.UnixNano(), 0
	p.PeriodType, p.Period = &profile.ValueType{Type: "space", Unit: "bytes"}, 512*1024
	p.SampleType = nil
	for _, t := range types {
		unit := "bytes"
		if t == "alloc_objects" || t == "inuse_objects" {
			unit = "count"
		}
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: t, Unit: unit})
	}
	for _, s := range p.Sample {
		n := s.Value[0]
		s.Value = make([]int64, len(types))
		for i := range s.Value {
			s.Value[i] = n * int64(i+1) * 4096
		}
		if r.IntN(4) == 0 {
			s.NumLabel = map[string][]int64{"bytes": {n * 4096}}
			s.NumUnit = map[string][]string{"bytes": {"bytes"}}
		}
	}
	labels := store.NewLabels(store.LabelName, "memory", store.LabelService, "api", "instance", "api-0", "version", "1.42.0")
	return store.Profile{Labels: labels, Time: at, Profile: p}
}

// goroutines returns a goroutine profile of db's first instance.
func goroutines(base *profile.Profile, r *rand.Rand, at time.Time) store.Profile {
	p := vary(base, r, 0)
	p.TimeNanos, p.DurationNanos = at.UnixNano(), 0
	p.SampleType = []*profile.ValueType{{Type: "goroutine", Unit: "count"}}
	p.PeriodType, p.Period = &profile.ValueType{Type: "goroutine", Unit: "count"}, 1
	for _, s := range p.Sample {
		s.Value = s.Value[:1]
	}
	labels := store.NewLabels(store.LabelName, "goroutines", store.LabelService, "db", "instance", "db-0")
	return store.Profile{Labels: labels, Time: at, Profile: p}
}
