package fleetgen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store"
)

// Config sets the shape of a Fleet. Zero fields take Default's values.
type Config struct {
	Seed    uint64 // the same seed gives the same profiles
	Service string // the service_name label, and the binary's name
	// Functions and Stacks are the program's functions and distinct
	// stacks; MaxDepth bounds a stack's frames.
	Functions, Stacks, MaxDepth int
	// Instances is the number of instances, instance label SERVICE-N.
	Instances int
	// Versions are the version labels, in order; every instance moves to
	// the next one after VersionEvery profiles.
	Versions     []string
	VersionEvery int
	// Interval is the time between two profiles of an instance, and a CPU
	// profile's duration; Start is the time of the first.
	Interval time.Duration
	Start    time.Time
	// PIE loads the binary of every instance and version at another
	// address, as position-independent executables are.
	PIE bool
	// Samples is the mean number of samples of a CPU profile (100 a second
	// for each busy core).
	Samples int
}

// Default is a realistic service: 400 functions, 3,000 distinct stacks up
// to 48 frames deep, one instance, 10-second profiles of one busy core, a
// new version every 4 hours.
var Default = Config{
	Seed:         1,
	Service:      "api",
	Functions:    400,
	Stacks:       3000,
	MaxDepth:     48,
	Instances:    1,
	Versions:     []string{"1.42.0", "1.43.0", "1.43.1"},
	VersionEvery: 1440,
	Interval:     10 * time.Second,
	Start:        time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
	Samples:      1000,
}

func (c Config) withDefaults() Config {
	d := Default
	for _, f := range []struct{ v, def *int }{
		{&c.Functions, &d.Functions}, {&c.Stacks, &d.Stacks}, {&c.MaxDepth, &d.MaxDepth},
		{&c.Instances, &d.Instances}, {&c.VersionEvery, &d.VersionEvery}, {&c.Samples, &d.Samples},
	} {
		if *f.v == 0 {
			*f.v = *f.def
		}
	}
	if c.Service == "" {
		c.Service = d.Service
	}
	if c.Versions == nil {
		c.Versions = d.Versions
	}
	if c.Interval == 0 {
		c.Interval = d.Interval
	}
	if c.Start.IsZero() {
		c.Start = d.Start
	}
	return c
}

// A Fleet generates the profiles of one service's instances.
type Fleet struct {
	c Config
	p *program
}

// New returns the fleet c describes.
func New(c Config) (*Fleet, error) {
	c = c.withDefaults()
	if c.Functions < 20 || c.Stacks < 1 || c.MaxDepth < 3 || c.Instances < 1 || c.Samples < 1 || len(c.Versions) == 0 || c.Interval <= 0 {
		return nil, errors.New("fleetgen: want at least 20 functions, 1 stack, a depth of 3, 1 instance, 1 sample, 1 version and a positive interval")
	}
	r := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	return &Fleet{c: c, p: newProgram(c, r)}, nil
}

// Stacks returns the number of distinct stacks of the fleet's program.
func (f *Fleet) Stacks() int { return len(f.p.stacks) }

// Config returns the fleet's configuration, defaults filled in.
func (f *Fleet) Config() Config { return f.c }

// kinds are what Profile generates, by store.Kind short name.
var kinds = map[string]kindGen{
	"cpu":       {0, cpuValues, []string{"samples/count", "cpu/nanoseconds"}, "cpu/nanoseconds", 10_000_000},
	"heap":      {1, heapValues, []string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}, "space/bytes", 512 * 1024},
	"allocs":    {1, heapValues, []string{"alloc_objects/count", "alloc_space/bytes", "inuse_objects/count", "inuse_space/bytes"}, "space/bytes", 512 * 1024},
	"goroutine": {2, goroutineValues, []string{"goroutine/count"}, "goroutine/count", 1},
	"mutex":     {3, contentionValues, []string{"contentions/count", "delay/nanoseconds"}, "contentions/count", 1},
	"block":     {4, contentionValues, []string{"contentions/count", "delay/nanoseconds"}, "contentions/count", 1},
}

// A kindGen is how one kind of profile is made.
type kindGen struct {
	id         uint64
	values     func(stack int, count int64) ([]int64, int64) // values, and the bytes label (0: none)
	types      []string
	periodType string
	period     int64
}

func cpuValues(_ int, n int64) ([]int64, int64) { return []int64{n, n * 10_000_000}, 0 }

func heapValues(stack int, n int64) ([]int64, int64) {
	size := int64(16) << (stack % 9)
	objects := n * int64(1+stack%7)
	return []int64{objects, objects * size, objects / 3, objects / 3 * size}, size
}

func goroutineValues(_ int, n int64) ([]int64, int64) { return []int64{1 + n/8}, 0 }

func contentionValues(stack int, n int64) ([]int64, int64) {
	return []int64{n, n * int64(1000+stack%50*997)}, 0
}

// Profile returns profile number index of kind (cpu, heap or allocs,
// goroutine, mutex, block) of instance, with its series labels and time.
// Profiles share nothing: the caller may change them.
func (f *Fleet) Profile(kind string, instance, index int) (store.Profile, error) {
	k, ok := kinds[kind]
	sk, _ := store.LookupKind(kind)
	if !ok || instance < 0 || instance >= f.c.Instances || index < 0 {
		return store.Profile{}, fmt.Errorf("fleetgen: no profile %d of kind %q of instance %d", index, kind, instance)
	}
	version := min(index/f.c.VersionEvery, len(f.c.Versions)-1)
	// Instances are scraped a little apart, as a scraper spreads them.
	at := f.c.Start.Add(time.Duration(index)*f.c.Interval + time.Duration(instance)*f.c.Interval/time.Duration(f.c.Instances+1)).Truncate(time.Millisecond)
	r := rand.New(rand.NewPCG(f.c.Seed^k.id<<56^uint64(instance)<<32, uint64(index)))
	counts := f.sample(r, index, kind)
	p := f.build(k, counts, instance, version)
	p.TimeNanos = at.UnixNano()
	if kind == "cpu" {
		p.DurationNanos = int64(f.c.Interval)
	}
	labels := store.NewLabels(store.LabelName, sk.Type.Name, store.LabelService, f.c.Service,
		"instance", f.c.Service+"-"+strconv.Itoa(instance), "version", f.c.Versions[version])
	return store.Profile{Labels: labels, Time: at, Profile: p}, nil
}

// sample draws the samples of one profile from the stacks, whose weights
// drift over time (each on its own period of one to 24 hours).
func (f *Fleet) sample(r *rand.Rand, index int, kind string) map[int]int64 {
	n := f.c.Samples * (90 + r.IntN(21)) / 100
	if kind != "cpu" {
		n /= 4
	}
	cum := make([]float64, len(f.p.weights))
	var sum float64
	t := float64(index) * f.c.Interval.Seconds()
	for i, w := range f.p.weights {
		period := 3600 * float64(1+i%24)
		sum += w * (1 + 0.6*math.Sin(2*math.Pi*t/period+float64(i)))
		cum[i] = sum
	}
	counts := map[int]int64{}
	for range n {
		i, _ := slices.BinarySearch(cum, r.Float64()*sum)
		counts[min(i, len(cum)-1)]++
	}
	return counts
}

// build makes the profile of the stacks counted, as instance runs version.
func (f *Fleet) build(k kindGen, counts map[int]int64, instance, version int) *profile.Profile {
	p := &profile.Profile{Period: k.period, PeriodType: valueType(k.periodType)}
	for _, t := range k.types {
		p.SampleType = append(p.SampleType, valueType(t))
	}
	main := f.mapping(instance, version)
	p.Mapping = []*profile.Mapping{main, {ID: 2, Start: 0x7ffd_f7e0_0000, Limit: 0x7ffd_f7e0_2000, File: "[vdso]"}}
	funcs := map[int]*profile.Function{}
	locs := map[int]*profile.Location{}
	stacks := make([]int, 0, len(counts))
	for st := range counts {
		stacks = append(stacks, st)
	}
	slices.Sort(stacks)
	for _, st := range stacks {
		values, bytes := k.values(st, counts[st])
		s := &profile.Sample{Value: values}
		for _, li := range f.p.stackLocs[st] {
			s.Location = append(s.Location, f.location(p, li, main, version, locs, funcs))
		}
		if l := f.p.labels[st]; l != "" && k.id != 1 {
			s.Label = map[string][]string{"handler": {l}}
		}
		if bytes != 0 {
			s.NumLabel = map[string][]int64{"bytes": {bytes}}
		}
		p.Sample = append(p.Sample, s)
	}
	return p
}

func valueType(s string) *profile.ValueType {
	for i := range len(s) {
		if s[i] == '/' {
			return &profile.ValueType{Type: s[:i], Unit: s[i+1:]}
		}
	}
	return &profile.ValueType{Type: s}
}

// mapping returns the binary's mapping in instance running version: a
// build ID for each version, and with PIE an address for each process.
func (f *Fleet) mapping(instance, version int) *profile.Mapping {
	start := uint64(0x400000)
	if f.c.PIE {
		start = 0x5500_0000_0000 + uint64((instance*7919+version*104729)%4096)<<24
	}
	size := (funcSize*uint64(len(f.p.funcs)) + 0xfff) &^ 0xfff
	r := rand.New(rand.NewPCG(f.c.Seed, uint64(version)))
	return &profile.Mapping{
		ID: 1, Start: start, Limit: start + size,
		File:         "/app/" + f.c.Service,
		BuildID:      fmt.Sprintf("%016x%016x", r.Uint64(), r.Uint64()),
		HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true,
	}
}

// location returns the profile's location li, making it (and its
// functions) on first use. A new version's code is 0x40 bytes further.
func (f *Fleet) location(p *profile.Profile, li int, m *profile.Mapping, version int, locs map[int]*profile.Location, funcs map[int]*profile.Function) *profile.Location {
	if l, ok := locs[li]; ok {
		return l
	}
	def := f.p.locations[li]
	l := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Address: m.Start + def.offset + 0x40*uint64(version)}
	for _, ln := range def.lines {
		fn, ok := funcs[ln.fn]
		if !ok {
			src := &f.p.funcs[ln.fn]
			fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: src.name, SystemName: src.name, Filename: src.file, StartLine: src.startLine}
			funcs[ln.fn] = fn
			p.Function = append(p.Function, fn)
		}
		l.Line = append(l.Line, profile.Line{Function: fn, Line: ln.line})
	}
	locs[li] = l
	p.Location = append(p.Location, l)
	return l
}

// Each calls fn with the first n profiles of kind of every instance, in
// time order, and stops at fn's first error.
func (f *Fleet) Each(kind string, n int, fn func(store.Profile) error) error {
	for index := range n {
		for instance := range f.c.Instances {
			p, err := f.Profile(kind, instance, index)
			if err != nil {
				return err
			}
			if err := fn(p); err != nil {
				return err
			}
		}
	}
	return nil
}
