package profgen

import (
	"fmt"
	"math/rand/v2"
	"path"

	"github.com/google/pprof/profile"
)

// Config sets the shape of a generated profile. The zero value of a field
// means the value in Default.
type Config struct {
	Seed      uint64 // the same seed gives the same profile
	Samples   int    // number of samples
	Locations int    // number of locations, runtime.goexit's included
	Functions int    // number of functions, runtime.goexit's included
	MaxDepth  int    // most frames (inlined ones counted) in a stack
	// InlinePercent is the share of locations that carry inlined frames.
	InlinePercent int
	// LabelPercent is the share of samples that carry pprof labels.
	LabelPercent int
	// SourceRoot is the absolute directory under which function file
	// names are made; WriteSources writes the files there.
	SourceRoot string
}

// Default is the configuration of the benchmark profile: about 70 MB of
// uncompressed profile.proto.
var Default = Config{
	Seed:          1,
	Samples:       500_000,
	Locations:     200_000,
	Functions:     20_000,
	MaxDepth:      60,
	InlinePercent: 20,
	LabelPercent:  10,
	SourceRoot:    "/home/build/src",
}

// Small is a configuration for tests: the same shape, a thousandth of the
// size.
var Small = Config{
	Seed:          1,
	Samples:       2_000,
	Locations:     2_000,
	Functions:     300,
	MaxDepth:      40,
	InlinePercent: 20,
	LabelPercent:  10,
	SourceRoot:    "/home/build/src",
}

const (
	period     = 10_000_000 // 100 Hz, Go's default CPU profiling rate
	mapStart   = 0x400000
	funcSize   = 0x400 // bytes of text per function
	maxLocs    = 30    // locations per function at most
	linesPerPC = 3     // source lines between two locations of a function
)

func (c Config) withDefaults() Config {
	d := Default
	set := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	set(&c.Samples, d.Samples)
	set(&c.Locations, d.Locations)
	set(&c.Functions, d.Functions)
	set(&c.MaxDepth, d.MaxDepth)
	set(&c.InlinePercent, d.InlinePercent)
	set(&c.LabelPercent, d.LabelPercent)
	if c.SourceRoot == "" {
		c.SourceRoot = d.SourceRoot
	}
	return c
}

func (c Config) check() error {
	switch {
	case c.MaxDepth < 3:
		return fmt.Errorf("profgen: MaxDepth %d < 3", c.MaxDepth)
	case c.Functions < c.MaxDepth:
		return fmt.Errorf("profgen: %d functions cannot fill %d layers", c.Functions, c.MaxDepth)
	case c.Locations < c.Functions || c.Locations > c.Functions*maxLocs:
		return fmt.Errorf("profgen: %d locations for %d functions: want between 1 and %d each",
			c.Locations, c.Functions, maxLocs)
	case !path.IsAbs(c.SourceRoot):
		return fmt.Errorf("profgen: SourceRoot %q is not absolute", c.SourceRoot)
	}
	return nil
}

// Generate builds the profile that c describes.
func Generate(c Config) (*profile.Profile, error) {
	c = c.withDefaults()
	if err := c.check(); err != nil {
		return nil, err
	}
	g := &generator{cfg: c, r: rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))}
	g.p = &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "cpu", Unit: "nanoseconds"},
		},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:     period,
		TimeNanos:  1_750_000_000_000_000_000 + int64(c.Seed%1000)*1_000_000_000,
	}
	g.mappings()
	g.functions()
	g.locations()
	g.samples()
	if err := g.p.CheckValid(); err != nil {
		return nil, fmt.Errorf("profgen: generated an invalid profile: %w", err)
	}
	return g.p, nil
}

// generator holds the state of one Generate call. Function and location
// indexes are positions in p.Function and p.Location.
type generator struct {
	cfg    Config
	r      *rand.Rand
	p      *profile.Profile
	layer  []int     // function -> layer; layer 0 is runtime.goexit alone
	layers [][]int32 // layer -> its functions
	locs   [][]int32 // function -> its locations, the first never inlined
	callee []int32   // location -> function it calls, -1 for none
}

func (g *generator) mappings() {
	main := &profile.Mapping{
		ID:              1,
		Start:           mapStart,
		Limit:           mapStart + uint64(g.cfg.Functions+1)*funcSize,
		File:            "/home/build/bin/" + services[g.cfg.Seed%uint64(len(services))] + "d",
		BuildID:         fmt.Sprintf("%016x%016x", g.r.Uint64(), g.r.Uint64()),
		HasFunctions:    true,
		HasFilenames:    true,
		HasLineNumbers:  true,
		HasInlineFrames: true,
	}
	libc := &profile.Mapping{ID: 2, Start: 0x7f0000000000, Limit: 0x7f0000200000,
		Offset: 0x28000, File: "/usr/lib/x86_64-linux-gnu/libc.so.6"}
	vdso := &profile.Mapping{ID: 3, Start: 0x7ffd00000000, Limit: 0x7ffd00002000, File: "[vdso]"}
	g.p.Mapping = []*profile.Mapping{main, libc, vdso}
}

// randSkewed returns an index in [0, n) biased toward 0, so that a few
// entries are hot, as in real profiles.
func (g *generator) randSkewed(n int) int {
	u := g.r.Float64()
	return int(float64(n) * u * u * u)
}
