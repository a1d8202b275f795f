package investigate

import (
	"cmp"
	"context"
	"time"

	"github.com/perflab/perflab/compilenotes"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// analyzeAllocs reads the allocations of the measured window: the allocs
// profile's growth between the snapshots.
func (r *runner) analyzeAllocs() {
	rep := r.rep
	if d := r.delta("heap"); d != nil {
		if i := sampleIndex(d, "inuse_space"); i >= 0 {
			rep.HeapInuseGrowth = sumValues(d, i)
		}
	}
	d := r.delta("allocs")
	if d == nil {
		return
	}
	r.saveProfile("allocs-delta.pb.gz", d)
	r.allocs = d
	bi, oi := sampleIndex(d, "alloc_space"), sampleIndex(d, "alloc_objects")
	if bi < 0 || oi < 0 {
		r.problem("allocs profile without alloc_space and alloc_objects")
		return
	}
	rep.AllocBytes = sumValues(d, bi)
	if rep.Requests > 0 {
		rep.AllocBytesPerRequest = float64(rep.AllocBytes) / float64(rep.Requests)
		rep.AllocsPerRequest = float64(sumValues(d, oi)) / float64(rep.Requests)
	}
	rep.AllocTop = allocSites(d, bi, oi, rep.Requests, maxAllocSites)
	r.explainSites(d)
}

// maxAllocSites bounds the report's allocation sites.
const maxAllocSites = 15

// explainSites replaces the allocation sites with perflab escapes's when
// the program's source is on this machine: package compilenotes builds
// the sites' packages with -m and charges each sample to the innermost
// line of the program's own source, with the compiler's reasons, a
// category and a hint that applies to that line. Both commands then say
// the same of the same line. Without the source, the sites stay as
// allocSites found them, without reasons.
func (r *runner) explainSites(d *profile.Profile) {
	if r.o.NoReasons || len(r.rep.AllocTop) == 0 {
		return
	}
	r.o.Progress("asking the compiler why the allocation sites allocate")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a, err := compilenotes.Analyze(ctx, d.Copy(), compilenotes.AnalyzeOptions{SampleIndex: "alloc_space"})
	if err != nil {
		r.problem("compiler's reasons: %v", err)
		return
	}
	if a.BuildError != "" {
		r.problem("compiler's reasons: %s", a.BuildError)
		return
	}
	r.rep.AllocTop = analyzedSites(a, r.rep.Requests, maxAllocSites)
}

// analyzedSites returns the n heaviest sites of a as the report's.
func analyzedSites(a *compilenotes.Analysis, requests int64, n int) []AllocSite {
	out := []AllocSite{}
	for _, st := range a.Sites[:min(n, len(a.Sites))] {
		s := AllocSite{Func: st.Func, File: st.File, Line: int64(st.Line), Callee: st.Via, Bytes: st.Bytes,
			Objects: st.Objects, Reasons: st.Reasons, Category: st.Category, Hint: st.Hint}
		if c, ok := compilenotes.LookupCategory(st.Category); ok {
			s.CategoryTitle = c.Title
		}
		if a.Total > 0 {
			s.BytesShare = float64(st.Bytes) / float64(a.Total)
		}
		if requests > 0 {
			s.BytesPerReq = float64(st.Bytes) / float64(requests)
		}
		out = append(out, s)
	}
	return out
}

// allocSites attributes each sample to the first frame of the program's
// own code from the allocation up, with the library function it called.
func allocSites(p *profile.Profile, bi, oi int, requests int64, n int) []AllocSite {
	type key struct {
		fn, file, callee string
		line             int64
	}
	sites := map[key]*AllocSite{}
	var total int64
	for _, s := range p.Sample {
		if s.Value[bi] <= 0 {
			continue
		}
		total += s.Value[bi]
		k := siteOf(s)
		st := sites[key{k.Func, k.File, k.Callee, k.Line}]
		if st == nil {
			st = &k
			sites[key{k.Func, k.File, k.Callee, k.Line}] = st
		}
		st.Bytes += s.Value[bi]
		st.Objects += s.Value[oi]
	}
	out := []AllocSite{}
	for _, st := range sites {
		if total > 0 {
			st.BytesShare = float64(st.Bytes) / float64(total)
		}
		if requests > 0 {
			st.BytesPerReq = float64(st.Bytes) / float64(requests)
		}
		st.Reasons = []string{}
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b AllocSite) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Func, b.Func), cmp.Compare(a.Line, b.Line))
	})
	return out[:min(n, len(out))]
}

type frame struct {
	fn, file string
	line     int64
}

// siteOf finds a sample's allocation site.
func siteOf(s *profile.Sample) AllocSite {
	var frames []frame
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil {
				frames = append(frames, frame{ln.Function.Name, ln.Function.Filename, ln.Line})
			}
		}
	}
	if len(frames) == 0 {
		return AllocSite{Func: "?"}
	}
	for i, f := range frames {
		if userCode(f.fn) {
			site := AllocSite{Func: f.fn, File: f.file, Line: f.line}
			if i > 0 {
				site.Callee = calleeOf(frames[:i])
			}
			return site
		}
	}
	// No frame of the program's own: the outermost library frame that
	// is not the runtime's.
	for i := len(frames) - 1; i >= 0; i-- {
		if !strings.HasPrefix(frames[i].fn, "runtime.") {
			f := frames[i]
			return AllocSite{Func: f.fn, File: f.file, Line: f.line}
		}
	}
	f := frames[0]
	return AllocSite{Func: f.fn, File: f.file, Line: f.line}
}

// calleeOf names the library function the program called: the outermost
// of the frames below its own, skipping the runtime's.
func calleeOf(below []frame) string {
	for i := len(below) - 1; i >= 0; i-- {
		if !strings.HasPrefix(below[i].fn, "runtime.") {
			return below[i].fn
		}
	}
	return below[len(below)-1].fn
}

// userCode reports whether a function is the program's own rather than
// the standard library's: its import path starts with a domain (a dot in
// the first element) or it is in package main.
func userCode(fn string) bool {
	pkg := fn
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		if j := strings.Index(pkg[i:], "."); j >= 0 {
			pkg = pkg[:i+j]
		}
	} else if j := strings.Index(pkg, "."); j >= 0 {
		pkg = pkg[:j]
	}
	first, _, _ := strings.Cut(pkg, "/")
	return pkg == "main" || strings.Contains(first, ".")
}
