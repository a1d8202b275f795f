package compilenotes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/namedfile"
)

// A Site is a source line that allocates, with what it allocated and the
// compiler's reasons.
type Site struct {
	Func     string     `json:"func"`
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Via      string     `json:"via,omitempty"` // the called function that allocated, when not the line itself
	Value    int64      `json:"value"`         // in the chosen sample type
	Bytes    int64      `json:"bytes"`
	Objects  int64      `json:"objects"`
	Reasons  []string   `json:"reasons"`
	Flows    [][]string `json:"flows,omitempty"` // the compiler's flow for each reason, where it gives one
	Category string     `json:"category"`
	// Hint is what usually removes such an allocation: the category's
	// hint, or for a callee's, one that names the callee.
	Hint    string `json:"hint"`
	inlined bool   // Via was inlined into Func
}

// An Analysis is the allocation sites of a heap profile joined to the
// compiler's notes.
type Analysis struct {
	SampleType string  `json:"sample_type"` // the value sites are sorted by
	Total      int64   `json:"total"`       // of SampleType, over all samples
	Sites      []*Site `json:"sites"`       // heaviest first
	// BuildError says why there are no compiler notes, if there are none
	// (the source is not there or does not build); sites then have no
	// reasons and the category "other" or "callee".
	BuildError string `json:"build_error,omitempty"`
	Notes      *Notes `json:"-"`
}

// AnalyzeOptions configure Analyze.
type AnalyzeOptions struct {
	SampleIndex string // a sample type such as alloc_space (the default) or inuse_objects
	Build       Options
	// Local reports whether a source file is the user's code, which sites
	// are attributed to and which is built. nil means: it exists and is not
	// under GOROOT or GOMODCACHE.
	Local func(file string) bool
}

// Analyze finds the allocation sites of the heap profile p: each sample
// is charged to the innermost frame in the user's code (or, when there is
// none, to its leaf), then the packages of those lines are built with the
// compiler's notes and each site gets its line's reasons and a category.
func Analyze(ctx context.Context, p *profile.Profile, o AnalyzeOptions) (*Analysis, error) {
	vi, bi, oi, err := heapIndexes(p, o.SampleIndex)
	if err != nil {
		return nil, err
	}
	if o.Local == nil {
		o.Local = LocalFiles(ctx, o.Build)
	}
	a := &Analysis{SampleType: p.SampleType[vi].Type}
	sites := map[siteKey]*Site{}
	for _, s := range p.Sample {
		a.Total += s.Value[vi]
		key := siteOf(s, o.Local)
		st := sites[key]
		if st == nil {
			st = &Site{Func: key.Func, File: key.File, Line: key.Line, Via: key.Via, inlined: key.inlined}
			sites[key] = st
			a.Sites = append(a.Sites, st)
		}
		st.Value += s.Value[vi]
		st.Bytes += s.Value[bi]
		st.Objects += s.Value[oi]
	}
	sort.SliceStable(a.Sites, func(i, j int) bool { return a.Sites[i].Value > a.Sites[j].Value })
	a.Notes = newNotes()
	dirs := localDirs(a.Sites, o.Local)
	if len(dirs) == 0 && len(a.Sites) > 0 {
		a.BuildError = "no source file of the profile found outside GOROOT and the module cache"
	}
	if len(dirs) > 0 {
		for _, st := range a.Sites {
			if strings.HasSuffix(st.File, "_test.go") && o.Local(st.File) {
				o.Build.Tests = true // a benchmark's own lines: build the test binary
			}
		}
		ns, err := Build(ctx, dirs, o.Build)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a.BuildError = err.Error()
		} else {
			a.Notes = ns
		}
	}
	for _, st := range a.Sites {
		explain(st, a.Notes.At(st.File, st.Line))
	}
	return a, nil
}

// heapIndexes returns the indexes of the chosen sample value and of the
// bytes and objects of the same kind (alloc_ or inuse_).
func heapIndexes(p *profile.Profile, sampleIndex string) (v, b, o int, err error) {
	if sampleIndex == "" {
		sampleIndex = "alloc_space"
	}
	var types []string
	for _, st := range p.SampleType {
		types = append(types, st.Type)
	}
	v, err = p.SampleIndexByName(sampleIndex)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("not a heap or allocs profile (sample types: %s): %w", strings.Join(types, ", "), err)
	}
	kind, _, ok := strings.Cut(p.SampleType[v].Type, "_")
	b, o = slices.Index(types, kind+"_space"), slices.Index(types, kind+"_objects")
	if !ok || b < 0 || o < 0 {
		return 0, 0, 0, fmt.Errorf("not a heap or allocs profile: sample types %s, want alloc_space and alloc_objects or inuse_space and inuse_objects", strings.Join(types, ", "))
	}
	return v, b, o, nil
}

// A siteKey identifies a site.
type siteKey struct {
	Func, File string
	Line       int
	Via        string
	inlined    bool // the allocating code was inlined into Func: the line's notes explain it
}

// siteOf returns the site a sample is charged to.
func siteOf(s *profile.Sample, local func(string) bool) siteKey {
	var leaf, prev *profile.Line
	for depth, loc := range s.Location {
		for i := range loc.Line {
			ln := &loc.Line[i]
			if ln.Function == nil {
				continue
			}
			if leaf == nil {
				leaf = ln
			}
			if local(ln.Function.Filename) {
				st := siteKey{Func: ln.Function.Name, File: ln.Function.Filename, Line: int(ln.Line)}
				if prev != nil {
					st.Via, st.inlined = prev.Function.Name, depth == 0
				}
				return st
			}
			prev = ln
		}
	}
	if leaf == nil {
		return siteKey{Func: "(unknown)"}
	}
	return siteKey{Func: leaf.Function.Name, File: leaf.Function.Filename, Line: int(leaf.Line)}
}

// localDirs returns the directories of the sites in the user's code.
func localDirs(sites []*Site, local func(string) bool) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, st := range sites {
		if st.File == "" || !local(st.File) {
			continue
		}
		if d := filepath.Dir(st.File); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

// explain sets a site's reasons, category and hint from its line's
// notes: the escapes, variables moved to heap and sizes unknown at compile
// time, and the inlining of the function it allocated through. A site
// whose called function allocated (not inlined, not one of the runtime's
// allocation functions) is that callee's: the line's notes are about
// other allocations and do not explain it.
func explain(st *Site, notes []Note) {
	st.Reasons = []string{}
	rt := runtimeCategory(st.Via)
	callee := st.Via != "" && !st.inlined && rt == ""
	var alloc []Note
	for _, n := range notes {
		switch {
		case n.Kind == Inlined && st.Via != "" && n.Message == "inlining call to "+shortFunc(st.Via):
		case callee:
			continue
		case (n.Kind == MovedToHeap || n.Kind == Escape || n.Kind == NoEscape) && !static(n):
			alloc = append(alloc, n)
		default:
			continue
		}
		st.Reasons = append(st.Reasons, n.Message)
		st.Flows = append(st.Flows, n.Flow)
	}
	if !hasFlow(st.Flows) {
		st.Flows = nil
	}
	st.Category = classifyLine(alloc)
	switch {
	case callee:
		st.Category = "callee"
	case st.Category == "other" && rt != "":
		st.Category = rt
	}
	st.Hint = hintFor(st)
}

// static reports whether an escape note is about something that costs no
// allocation: a string constant converted to an interface (often the
// argument of a panic in an inlined function).
func static(n Note) bool {
	return n.Kind == Escape && strings.HasPrefix(n.Message, `"`)
}

func hasFlow(flows [][]string) bool {
	for _, f := range flows {
		if len(f) > 0 {
			return true
		}
	}
	return false
}

// shortFunc drops the import path before a function's package name, as
// the compiler's messages name functions: net/http.Get is http.Get.
func shortFunc(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// LocalFiles returns the default AnalyzeOptions.Local: it reports whether
// a file is a .go file that exists outside GOROOT and GOMODCACHE, and
// outside /proc, /sys and /dev (see package namedfile).
func LocalFiles(ctx context.Context, o Options) func(string) bool {
	var roots []string
	if out, err := goOutput(ctx, o, "", "env", "GOROOT", "GOMODCACHE"); err == nil {
		for _, r := range strings.Fields(string(out)) {
			roots = append(roots, filepath.Clean(r)+string(filepath.Separator))
		}
	}
	cache := map[string]bool{}
	return func(file string) bool {
		if ok, seen := cache[file]; seen {
			return ok
		}
		ok := filepath.IsAbs(file) && strings.HasSuffix(file, ".go")
		for _, r := range roots {
			ok = ok && !strings.HasPrefix(file, r)
		}
		if ok {
			fi, err := os.Stat(file)
			ok = err == nil && fi.Mode().IsRegular() && namedfile.Check(file) == nil
		}
		cache[file] = ok
		return ok
	}
}
