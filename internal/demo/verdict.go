package demo

import (
	"cmp"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/examples/havlak"
)

// havlakPath is the workload's import path, read from the package itself.
var havlakPath = reflect.TypeFor[havlak.CFG]().PkgPath()

// havlakPrefix starts the name of every function of the workload.
var havlakPrefix = havlakPath + "."

// shortName turns a workload function's full name into the one the Go
// blog uses, such as havlak.FindLoops.
func shortName(fn string) string { return path.Base(fn) }

// A category is a kind of CPU work a sample can belong to: the first
// category with a frame matching rx wins.
type category struct {
	name   string
	phrase string // how the verdict says it
	rx     *regexp.Regexp
}

var categories = []category{
	{"map operations", "in map operations", regexp.MustCompile(`^(runtime\.(map|makemap)|internal/runtime/maps\.)`)},
	{"memory allocation", "allocating memory", regexp.MustCompile(`^runtime\.(mallocgc|newobject|newarray|growslice|makeslice)`)},
	{"garbage collection", "in the garbage collector", regexp.MustCompile(`^runtime\.(gcBgMarkWorker|bgsweep|bgscavenge|gcDrain|gcAssist|markroot|scanobject|scanObject)`)},
}

// A Share is the part of a profile's total that one category of work
// takes, and the workload functions it was done for.
type Share struct {
	Category string // map operations, memory allocation or garbage collection
	wording  string
	Value    int64
	Fraction float64  // of the profile's total
	Callers  []Caller // workload functions nearest the work, biggest first
}

// A Caller is a workload function and the value attributed to it.
type Caller struct {
	Name     string // short name, such as havlak.FindLoops
	Value    int64
	Fraction float64 // of the profile's total
}

// frames returns a sample's function names, leaf first, inlined frames
// included.
func frames(s *profile.Sample) []string {
	var out []string
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil {
				out = append(out, ln.Function.Name)
			}
		}
	}
	return out
}

// classify splits a CPU profile's samples into the categories, each
// attributed to the workload function nearest the work, and returns the
// shares biggest first, with the total.
func classify(p *profile.Profile) ([]Share, int64) {
	vi := len(p.SampleType) - 1
	var total int64
	shares := make([]Share, len(categories))
	callers := make([]map[string]int64, len(categories))
	for i, c := range categories {
		shares[i].Category, shares[i].wording = c.name, c.phrase
		callers[i] = map[string]int64{}
	}
	for _, s := range p.Sample {
		v := s.Value[vi]
		total += v
		fns := frames(s)
		for i, c := range categories {
			if slices.ContainsFunc(fns, c.rx.MatchString) {
				shares[i].Value += v
				if ln := workloadLine(s); ln != nil {
					callers[i][shortName(ln.Function.Name)] += v
				}
				break
			}
		}
	}
	for i := range shares {
		shares[i].Fraction = ratio(shares[i].Value, total)
		shares[i].Callers = rank(callers[i], total)
	}
	slices.SortStableFunc(shares, func(a, b Share) int { return cmp.Compare(b.Value, a.Value) })
	return shares, total
}

// hottest returns the workload function to which the most CPU time is
// attributed, counting each sample for the workload frame nearest its
// leaf (its own code and the runtime work it calls directly, as pprof
// -show=examples/havlak counts flat time), and its fraction of the total.
func hottest(p *profile.Profile) (string, float64) {
	vi := len(p.SampleType) - 1
	attributed := map[string]int64{}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[vi]
		if ln := workloadLine(s); ln != nil {
			attributed[ln.Function.Name] += s.Value[vi]
		}
	}
	ranked := rank(attributed, total)
	if len(ranked) == 0 {
		return "", 0
	}
	return ranked[0].Name, ranked[0].Fraction
}

// workloadLine returns the sample's frame nearest its leaf that is in a
// workload function, or nil.
func workloadLine(s *profile.Sample) *profile.Line {
	for _, loc := range s.Location {
		for i, ln := range loc.Line {
			if ln.Function != nil && strings.HasPrefix(ln.Function.Name, havlakPrefix) {
				return &loc.Line[i]
			}
		}
	}
	return nil
}

// A Site is a line of the workload that allocates.
type Site struct {
	Function string // full name
	File     string // base name, such as naive.go
	Line     int
	Bytes    int64
	Fraction float64 // of all bytes allocated
}

// allocSites attributes an allocation profile's alloc_space to the
// workload line nearest each allocation and returns the lines, biggest
// first.
func allocSites(p *profile.Profile) ([]Site, error) {
	vi, err := p.SampleIndexByName("alloc_space")
	if err != nil {
		return nil, err
	}
	type key struct {
		fn, file string
		line     int
	}
	bytes := map[key]int64{}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[vi]
		if ln := workloadLine(s); ln != nil {
			bytes[key{ln.Function.Name, path.Base(ln.Function.Filename), int(ln.Line)}] += s.Value[vi]
		}
	}
	var sites []Site
	for k, b := range bytes {
		sites = append(sites, Site{k.fn, k.file, k.line, b, ratio(b, total)})
	}
	slices.SortFunc(sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return sites, nil
}

// rank orders a map of values biggest first (ties by name).
func rank(m map[string]int64, total int64) []Caller {
	var out []Caller
	for name, v := range m {
		out = append(out, Caller{name, v, ratio(v, total)})
	}
	slices.SortFunc(out, func(a, b Caller) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), strings.Compare(a.Name, b.Name))
	})
	return out
}

func ratio(v, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(v) / float64(total)
}

// named returns the callers worth naming: those with at least a fifth of
// the share's value, three at most.
func (s Share) named() []Caller {
	var out []Caller
	for _, c := range s.Callers {
		if len(out) == 3 || c.Value*5 < s.Value {
			break
		}
		out = append(out, c)
	}
	return out
}

// phrase describes the share in words, e.g. "61% of CPU time in map
// operations under havlak.FindLoops (40%) and havlak.DFS (21%)"; after
// the first share, "of CPU time" is left out.
func (s Share) phrase(first bool) string {
	text := fmt.Sprintf("%.0f%% %s", 100*s.Fraction, s.wording)
	if first {
		text = fmt.Sprintf("%.0f%% of CPU time %s", 100*s.Fraction, s.wording)
	}
	var names []string
	for _, c := range s.named() {
		names = append(names, fmt.Sprintf("%s (%.0f%%)", c.Name, 100*c.Fraction))
	}
	switch len(names) {
	case 0:
		return text
	case 1:
		return text + " under " + names[0]
	}
	return text + " under " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
