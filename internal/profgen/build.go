package profgen

import (
	"fmt"
	"path"
	"slices"

	"github.com/google/pprof/profile"
)

// functions makes runtime.goexit (layer 0) and Functions-1 others, spread
// over MaxDepth-1 layers: application packages in the shallow layers, the
// standard library in the deep ones. Each function gets its number of
// locations here, since that sets its length in lines.
func (g *generator) functions() {
	c := g.cfg
	nlocs := g.locationCounts()
	goexit := &profile.Function{ID: 1, Name: "runtime.goexit", SystemName: "runtime.goexit",
		Filename: path.Join(c.SourceRoot, "goroot/src/runtime/asm_amd64.s"), StartLine: 1700}
	g.p.Function = []*profile.Function{goexit}
	g.layer = []int{0}
	g.layers = make([][]int32, c.MaxDepth)
	g.layers[0] = []int32{0}

	n := c.Functions - 1
	pkgs := packagePaths(max(n/25, 2*len(stdPackages)))
	fileOf := map[string]int{} // package -> functions placed in its current file
	nextLine := map[string]int64{}
	for i := range n {
		pkg := pkgs[i*len(pkgs)/n]
		dir := "gopath/src/"
		if slices.Contains(stdPackages, pkg) {
			dir = "goroot/src/"
		}
		k := fileOf[pkg]
		fileOf[pkg]++
		file := path.Join(c.SourceRoot, dir, pkg, fmt.Sprintf("%s%d.go", lastElem(pkg), k/8))
		start := nextLine[file]
		if start == 0 {
			start = 10 // room for the package clause and imports
		}
		nextLine[file] = start + int64(nlocs[i+1]*linesPerPC+4)
		name := funcName(g.r, pkg, k)
		f := &profile.Function{ID: uint64(i + 2), Name: name, SystemName: name,
			Filename: file, StartLine: start}
		g.p.Function = append(g.p.Function, f)
		l := 1 + i*(c.MaxDepth-1)/n
		g.layer = append(g.layer, l)
		g.layers[l] = append(g.layers[l], int32(i+1))
	}
	g.locs = make([][]int32, len(nlocs))
	for f, k := range nlocs {
		g.locs[f] = make([]int32, 0, k)
	}
}

// locationCounts spreads Locations over the functions: one each, the rest
// at random, at most maxLocs each; runtime.goexit has exactly one.
func (g *generator) locationCounts() []int {
	c := g.cfg
	counts := make([]int, c.Functions)
	for i := range counts {
		counts[i] = 1
	}
	for left := c.Locations - c.Functions; left > 0; {
		f := 1 + g.r.IntN(c.Functions-1)
		if counts[f] < maxLocs {
			counts[f]++
			left--
		}
	}
	return counts
}

// locations makes each function's locations, a few source lines apart.
// InlinePercent of them (never a function's first) also carry one or two
// inlined frames of functions from deeper layers. Each location calls one
// function of the next layer.
func (g *generator) locations() {
	main := g.p.Mapping[0]
	for f, fn := range g.p.Function {
		for j := range cap(g.locs[f]) {
			id := len(g.p.Location) + 1
			loc := &profile.Location{
				ID:      uint64(id),
				Mapping: main,
				Address: mapStart + uint64(f)*funcSize + 0x10 + uint64(j)*0x20,
			}
			if j > 0 && g.r.IntN(100) < g.cfg.InlinePercent {
				for range 1 + g.r.IntN(2) {
					loc.Line = append(loc.Line, g.inlinedLine(g.layer[f]))
				}
			}
			loc.Line = append(loc.Line, profile.Line{Function: fn, Line: fn.StartLine + 2 + int64(j*linesPerPC)})
			callee := int32(-1)
			if l := g.layer[f] + 1; f != 0 && l < len(g.layers) {
				callee = g.layers[l][g.r.IntN(len(g.layers[l]))]
			}
			g.p.Location = append(g.p.Location, loc)
			g.locs[f] = append(g.locs[f], int32(id-1))
			g.callee = append(g.callee, callee)
		}
	}
}

// inlinedLine returns a line of a function from a layer deeper than l,
// inlined into a function of layer l.
func (g *generator) inlinedLine(l int) profile.Line {
	l = min(l+1+g.r.IntN(3), len(g.layers)-1)
	f := g.layers[l][g.r.IntN(len(g.layers[l]))]
	fn := g.p.Function[f]
	j := g.r.IntN(cap(g.locs[f]))
	return profile.Line{Function: fn, Line: fn.StartLine + 2 + int64(j*linesPerPC)}
}

var routes = []string{
	"/api/v1/cart", "/api/v1/checkout", "/api/v1/items", "/api/v1/search",
	"/api/v2/orders", "/api/v2/users", "/healthz", "/metrics",
}

// samples walks the call graph from runtime.goexit down to a random
// depth for each sample; hot functions are chosen more often.
func (g *generator) samples() {
	c := g.cfg
	g.p.Sample = make([]*profile.Sample, 0, c.Samples)
	var stack []*profile.Location
	var total int64
	for range c.Samples {
		stack = g.stack(stack[:0], g.depth())
		slices.Reverse(stack) // leaf first
		n := int64(1)
		if g.r.IntN(10) == 0 {
			n += int64(1 + g.r.IntN(4))
		}
		s := &profile.Sample{
			Location: slices.Clone(stack),
			Value:    []int64{n, n * period},
		}
		if g.r.IntN(100) < c.LabelPercent {
			s.Label = map[string][]string{"handler": {routes[g.randSkewed(len(routes))]}}
			if g.r.IntN(3) == 0 {
				s.Label["tenant"] = []string{fmt.Sprintf("t%03d", g.randSkewed(200))}
			}
		}
		g.p.Sample = append(g.p.Sample, s)
		total += n * period
	}
	// As if the program kept 8 CPUs busy.
	g.p.DurationNanos = (total / 8 / 1e9) * 1e9
}

// depth returns a stack depth in [4, MaxDepth], biased toward deep
// stacks as in servers (average about 3/4 of MaxDepth).
func (g *generator) depth() int {
	u := g.r.Float64()
	return 4 + int(float64(g.cfg.MaxDepth-3)*(1-u*u*u))
}

// hotShare is the percentage of samples whose leaf is one of the few hot
// functions at the end of the deepest layer, in package runtime (think
// runtime.mallocgc, memmove).
const (
	hotShare = 40
	hotFuncs = 20
)

// stack appends to stack, root first, the locations of one walk of at
// most depth frames (inlined frames counted).
func (g *generator) stack(stack []*profile.Location, depth int) []*profile.Location {
	hot := g.r.IntN(100) < hotShare
	if hot {
		depth-- // keep the last frame for the hot leaf
	}
	stack = append(stack, g.p.Location[g.locs[0][0]])
	frames := 1
	l1 := g.layers[1]
	f := l1[g.randSkewed(len(l1))]
	for {
		locs := g.locs[f]
		loc := g.p.Location[locs[g.randSkewed(len(locs))]]
		next := g.callee[locs[0]]
		if frames+len(loc.Line) > depth || next < 0 {
			loc = g.p.Location[locs[0]] // a single frame, as a leaf
		}
		stack = append(stack, loc)
		frames += len(loc.Line)
		if frames >= depth || next < 0 {
			break
		}
		f = g.callee[loc.ID-1]
	}
	if hot {
		last := g.layers[len(g.layers)-1]
		f := last[len(last)-1-g.randSkewed(min(hotFuncs, len(last)))]
		stack = append(stack, g.p.Location[g.locs[f][0]])
	}
	return stack
}
