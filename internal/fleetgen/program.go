package fleetgen

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// A function of the generated program.
type function struct {
	name, file string
	startLine  int64
	layer      int
	calls      []callSite // none for a leaf
	selfLines  []int64    // lines where samples land in the function itself
}

// A callSite is a call on one line, maybe inlined.
type callSite struct {
	line    int64
	callee  int
	inlined bool
}

// A frame is one entry of a generated stack, leaf first: the function and
// either a call site (site >= 0) or a line of its own code (site < 0,
// self is the index in selfLines).
type frame struct {
	fn, site, self int
}

// program is the generated service: its functions, locations and
// distinct stacks with their base weights.
type program struct {
	funcs     []function
	stacks    [][]frame // leaf first
	weights   []float64 // base weight of each stack, summing to 1
	labels    []string  // the handler label of each stack, or ""
	locations []location
	stackLocs [][]int // the locations of each stack, leaf first
}

// A location of the program: an address in the binary (relative to its
// start) and its lines, the innermost inlined frame first.
type location struct {
	offset uint64
	lines  []line
}

type line struct {
	fn   int
	line int64
}

// The layers of the call graph, from the goroutine's root down to the
// runtime, with the packages that live in each ("" is the service's own).
var layers = []struct {
	packages []string
	share    float64 // share of the functions
}{
	{[]string{"runtime"}, 0},                               // runtime.goexit alone
	{[]string{"net/http", "google.golang.org/grpc"}, 0.04}, // servers
	{[]string{"", ""}, 0.10},                               // handlers
	{[]string{"", "", "context"}, 0.16},                    // services
	{[]string{"", "database/sql", "encoding/json"}, 0.18},  // stores and codecs
	{[]string{"bytes", "strings", "strconv", "sort", "crypto/sha256", "compress/flate", "reflect"}, 0.22},
	{[]string{"sync", "internal/poll", "syscall", "time", "bufio"}, 0.14},
	{[]string{"runtime", "internal/bytealg"}, 0.16}, // the leaves
}

var (
	areas = []string{"cart", "orders", "users", "search", "pricing", "stock", "session", "ledger", "cache", "auth"}
	verbs = []string{"get", "put", "list", "scan", "decode", "encode", "hash", "merge", "sort", "load", "check", "flush"}
	nouns = []string{"Item", "Row", "Page", "Key", "Batch", "Token", "Entry", "Index", "Frame", "Query"}
)

// newProgram generates the program of c.
func newProgram(c Config, r *rand.Rand) *program {
	p := &program{}
	p.funcs = append(p.funcs, function{name: "runtime.goexit", file: goroot("runtime", "asm_amd64.s"), startLine: 1700, layer: 0})
	for layer := 1; layer < len(layers); layer++ {
		n := max(2, int(math.Round(layers[layer].share*float64(c.Functions))))
		for range n {
			p.funcs = append(p.funcs, p.newFunction(c, r, layer))
		}
	}
	p.connect(r)
	p.makeStacks(c, r)
	p.makeLocations()
	return p
}

// makeLocations turns the stacks' frames into locations: a frame and the
// callers that inlined it share one. Each location gets an address inside
// its outermost function's code, fixed for the program.
func (p *program) makeLocations() {
	index := map[string]int{}
	perFunc := make([]int, len(p.funcs)) // locations made in each function
	p.stackLocs = make([][]int, len(p.stacks))
	for i, st := range p.stacks {
		for j := 0; j < len(st); j++ {
			var lines []line
			for {
				fr := st[j]
				f := &p.funcs[fr.fn]
				if fr.site >= 0 {
					lines = append(lines, line{fr.fn, f.calls[fr.site].line})
				} else {
					lines = append(lines, line{fr.fn, f.selfLines[fr.self]})
				}
				if j+1 == len(st) || !p.funcs[st[j+1].fn].calls[st[j+1].site].inlined {
					break
				}
				j++
			}
			key := lineKey(lines)
			id, ok := index[key]
			if !ok {
				outer := lines[len(lines)-1].fn
				perFunc[outer]++
				id = len(p.locations)
				index[key] = id
				p.locations = append(p.locations, location{offset: funcSize*uint64(outer) + 8*uint64(perFunc[outer]), lines: lines})
			}
			p.stackLocs[i] = append(p.stackLocs[i], id)
		}
	}
}

// funcSize is the bytes of code of each function.
const funcSize = 0x800

func goroot(pkg, file string) string { return "/usr/local/go/src/" + pkg + "/" + file }

func (p *program) newFunction(c Config, r *rand.Rand, layer int) function {
	pkgs := layers[layer].packages
	pkg := pkgs[r.IntN(len(pkgs))]
	verb, noun := verbs[r.IntN(len(verbs))], nouns[r.IntN(len(nouns))]
	f := function{layer: layer, startLine: int64(20 + r.IntN(800))}
	name := fmt.Sprintf("%s%s%d", strings.ToUpper(verb[:1])+verb[1:], noun, len(p.funcs))
	switch {
	case pkg == "":
		area := areas[r.IntN(len(areas))]
		path := "github.com/acme/" + c.Service + "/internal/" + area
		if r.IntN(2) == 0 {
			name = "(*" + noun + "Store)." + name
		}
		f.name, f.file = path+"."+name, "/home/build/"+c.Service+"/internal/"+area+"/"+strings.ToLower(noun)+".go"
	default:
		if r.IntN(3) == 0 {
			name = "(*" + noun + ")." + strings.ToLower(verb)
		}
		if r.IntN(5) == 0 {
			name += ".func1"
		}
		f.name, f.file = pkg+"."+name, goroot(pkg, strings.ToLower(noun)+".go")
	}
	for k := range 1 + r.IntN(3) {
		f.selfLines = append(f.selfLines, f.startLine+int64(2+3*k))
	}
	return f
}

// connect gives every function but the leaves call sites into the next
// one to three layers, the callees skewed toward a few hot ones.
func (p *program) connect(r *rand.Rand) {
	byLayer := make([][]int, len(layers))
	for i, f := range p.funcs {
		byLayer[f.layer] = append(byLayer[f.layer], i)
	}
	for i := range p.funcs {
		f := &p.funcs[i]
		if f.layer == len(layers)-1 {
			continue
		}
		n := 1 + r.IntN(5)
		if f.layer == 0 {
			n = len(byLayer[1])
		}
		for k := range n {
			// Calls go down one or two layers, or stay in the layer (the
			// service's own packages call each other, deep and recursive).
			target := min(len(layers)-1, f.layer+1+r.IntN(5)/4)
			if f.layer >= 2 && f.layer < len(layers)-2 && r.IntN(3) != 0 {
				target = f.layer
			}
			callees := byLayer[target]
			callee := callees[skewed(r, len(callees))]
			if f.layer == 0 {
				callee = byLayer[1][k]
			}
			line := f.startLine + int64(10+4*k)
			f.calls = append(f.calls, callSite{line: line, callee: callee, inlined: target >= 5 && r.IntN(4) == 0})
		}
	}
}

// skewed returns an index in [0, n) biased toward 0.
func skewed(r *rand.Rand, n int) int {
	u := r.Float64()
	return min(n-1, int(float64(n)*u*u*u))
}

// makeStacks walks the call graph from the root until it has c.Stacks
// distinct stacks (or has tried long enough), and weighs them as Zipf.
func (p *program) makeStacks(c Config, r *rand.Rand) {
	seen := map[string]bool{}
	for tries := 0; len(p.stacks) < c.Stacks && tries < 50*c.Stacks; tries++ {
		st := p.walk(c, r)
		key := frameKey(st)
		if seen[key] {
			continue
		}
		seen[key] = true
		p.stacks = append(p.stacks, st)
	}
	order := r.Perm(len(p.stacks))
	p.weights = make([]float64, len(p.stacks))
	var sum float64
	for i, rank := range order {
		p.weights[i] = 1 / math.Pow(float64(rank+1), 1.1)
		sum += p.weights[i]
	}
	p.labels = make([]string, len(p.stacks))
	for i := range p.weights {
		p.weights[i] /= sum
		// Requests' goroutines carry the handler label, as middleware sets it.
		if top := p.stacks[i][len(p.stacks[i])-2]; p.funcs[top.fn].layer == 1 && i%3 != 0 {
			p.labels[i] = "/api/v1/" + areas[i%len(areas)]
		}
	}
}

// walk returns one random stack, leaf first.
func (p *program) walk(c Config, r *rand.Rand) []frame {
	var down []frame // root first
	fn := 0
	for {
		f := &p.funcs[fn]
		stop := len(f.calls) == 0 || len(down) >= c.MaxDepth-1 || fn != 0 && r.IntN(20) == 0
		if stop {
			down = append(down, frame{fn: fn, site: -1, self: r.IntN(len(f.selfLines))})
			break
		}
		site := skewed(r, len(f.calls))
		down = append(down, frame{fn: fn, site: site})
		fn = f.calls[site].callee
	}
	slices.Reverse(down)
	return down
}

// frameKey and lineKey make map keys of frames and lines.
func frameKey(frames []frame) string {
	b := make([]byte, 0, 3*binary.MaxVarintLen64*len(frames))
	for _, f := range frames {
		b = binary.AppendVarint(b, int64(f.fn))
		b = binary.AppendVarint(b, int64(f.site))
		b = binary.AppendVarint(b, int64(f.self))
	}
	return string(b)
}

func lineKey(lines []line) string {
	b := make([]byte, 0, 2*binary.MaxVarintLen64*len(lines))
	for _, l := range lines {
		b = binary.AppendVarint(b, int64(l.fn))
		b = binary.AppendVarint(b, l.line)
	}
	return string(b)
}
