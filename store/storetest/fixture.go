package storetest

import (
	"cmp"
	"slices"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// Epoch is the time of the first profile of Fixture: 2026-11-20 00:00 UTC.
var Epoch = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// Fixture returns the profiles Run writes, in time order, made by
// internal/fleetgen: two services, api (PIE: its two instances load the
// binary at other addresses; a version label that changes half way) and
// db (no version label), a CPU profile of each of their two instances
// every 10 minutes for two hours (the second instance 3m20s after the
// first), heap profiles of api's first instance every 30 minutes and one
// pushed with two sample types only, goroutine profiles of db, pprof
// labels on some samples, a profile written twice, and one whose time is
// its TimeNanos. The same call gives the same profiles.
func Fixture() []store.Profile {
	api := fleet(fleetgen.Config{Seed: 1, Service: "api", PIE: true, Versions: []string{"1.42.0", "1.43.1"}, VersionEvery: 6})
	db := fleet(fleetgen.Config{Seed: 2, Service: "db"})
	var ps []store.Profile
	for slot := range 12 {
		for inst := range 2 {
			ps = append(ps, gen(api, "cpu", inst, slot), unversioned(gen(db, "cpu", inst, slot)))
		}
		if slot%3 == 0 {
			ps = append(ps, gen(api, "heap", 0, slot))
		}
		if slot%6 == 0 {
			ps = append(ps, unversioned(gen(db, "goroutine", 0, slot)))
		}
	}
	pushed := gen(api, "heap", 0, 5)
	pushed.Time = Epoch.Add(55 * time.Minute)
	pushed.Profile.TimeNanos = pushed.Time.UnixNano()
	pushed.Profile.SampleType = pushed.Profile.SampleType[:2] // alloc_objects, alloc_space
	for _, s := range pushed.Profile.Sample {
		s.Value = s.Value[:2]
	}
	ps = append(ps, pushed)
	twice := gen(api, "cpu", 0, 0)
	ps = append(ps, twice)
	ps[7].Time = time.Time{} // its TimeNanos tells
	slices.SortStableFunc(ps, func(a, b store.Profile) int { return cmp.Compare(a.Profile.TimeNanos, b.Profile.TimeNanos) })
	return ps
}

// fleet returns a small fleet of two instances, a profile every 10
// minutes from Epoch.
func fleet(c fleetgen.Config) *fleetgen.Fleet {
	c.Functions, c.Stacks, c.MaxDepth, c.Samples = 60, 150, 16, 150
	c.Instances, c.Interval, c.Start = 2, 10*time.Minute, Epoch
	f, err := fleetgen.New(c)
	if err != nil {
		panic(err) // a fixed configuration: cannot fail
	}
	return f
}

func gen(f *fleetgen.Fleet, kind string, instance, index int) store.Profile {
	p, err := f.Profile(kind, instance, index)
	if err != nil {
		panic(err) // a fixed configuration: cannot fail
	}
	return p
}

func unversioned(p store.Profile) store.Profile {
	p.Labels = p.Labels.Without("version")
	return p
}
