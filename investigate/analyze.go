package investigate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/loadgen"
	"github.com/perflab/perflab/report"
)

// analyze turns what the run collected into the report's figures and
// findings. It works with whatever was collected.
func (r *runner) analyze() {
	rep := r.rep
	rep.WindowSeconds = r.window.Seconds()
	if r.lat != nil {
		r.analyzeLoad()
	}
	r.analyzeGC()
	if r.cpuFile != "" {
		r.analyzeCPU()
	}
	r.analyzeAllocs()
	r.analyzeGoroutines()
	rep.BlockTop = r.contention("block")
	rep.MutexTop = r.contention("mutex")
	if r.traceFile != "" {
		t, err := summarizeTrace(r.traceFile, rep.GC.Cycles > 0 && rep.GC.CPUPercent > 0)
		if err != nil {
			r.problem("trace summary: %v", err)
		}
		rep.Trace = t
	}
	if r.o.Base != "" {
		r.compare()
	}
	rep.Findings = findings(rep)
	rep.Headline = headline(rep)
}

func (r *runner) analyzeLoad() {
	rep := r.rep
	rep.results = r.results
	rep.Rate, rep.Workers = r.o.Load.Rate, cmp.Or(r.o.Load.C, loadgen.DefaultC)
	for i, res := range r.results {
		u := URLLoad{URL: res.URL, Method: r.o.Load.Method, Responses: res.Responses, Errors: res.ErrorCount,
			RPS: res.RPS(), Seconds: res.Elapsed.Seconds(), Latency: Quantiles{
				P50: res.Latency.Percentile(50).Seconds(), P90: res.Latency.Percentile(90).Seconds(),
				P99: res.Latency.Percentile(99).Seconds(), Max: res.Latency.Max.Seconds()}}
		if u.Method == "" {
			u.Method = "GET"
		}
		for code, n := range res.StatusCodes {
			if code < 200 || code > 299 {
				u.Non2xx += n
			}
		}
		rep.URLs = append(rep.URLs, u)
		rep.Requests += res.Responses
		rep.Cost.Responses += res.Responses
		rep.Errors += res.ErrorCount + u.Non2xx
		span := res.Elapsed // samples count by send time: with -z, none are sent after Duration
		if d := r.o.Load.Duration; d > 0 && d < span {
			span = d
		}
		rep.Rounds = append(rep.Rounds, r.lat.rounds(i, res.URL, span, r.o.Rounds)...)
	}
	var busy time.Duration
	for _, res := range r.results {
		busy += res.Elapsed
	}
	if busy > 0 {
		rep.RPS = float64(rep.Requests) / busy.Seconds()
	}
	h := r.lat.hist
	if h.TotalCount() == 0 {
		return
	}
	ns := func(v int64) float64 { return time.Duration(v).Seconds() }
	rep.Latency = Quantiles{P50: ns(h.ValueAtQuantile(50)), P90: ns(h.ValueAtQuantile(90)),
		P99: ns(h.ValueAtQuantile(99)), Max: ns(h.Max())}
	lo, hi := h.Min(), h.Max()
	const n = 12
	step := max(1, (hi-lo+n-1)/n)
	counts := make([]int64, n)
	for _, bar := range h.Distribution() {
		if bar.Count > 0 {
			counts[min(n-1, max(0, (bar.From-lo)/step))] += bar.Count
		}
	}
	for i, c := range counts {
		rep.Histogram = append(rep.Histogram, Bucket{Le: ns(lo + int64(i+1)*step), Count: c})
	}
}

func (r *runner) analyzeGC() {
	g := r.gc
	g.mu.Lock()
	defer g.mu.Unlock()
	rep := r.rep
	w := g.window.Summary(r.window)
	all := g.all.Summary(0)
	rep.GC = GCReport{Cycles: w.GCs, PauseP99: w.STWPause.P99, PauseMax: w.STWPause.Max,
		HeapLiveFirst: w.HeapLive.First, HeapLiveLast: w.HeapLive.Last, HeapLiveMax: w.HeapLive.Max,
		HeapTrendBytesPerSec: all.LiveHeapTrend, LeakSuspected: all.LeakSuspected, Verdict: all.Verdict,
		TotalCycles: all.GCs, Procs: max(g.procs, all.Procs)}
	if rep.Requests > 0 {
		rep.GC.CyclesPer1000 = 1000 * float64(w.GCs) / float64(rep.Requests)
	}
	if r.window > 0 && rep.GC.Procs > 0 {
		rep.GC.CPUPercent = 100 * g.cpu.Seconds() / (r.window.Seconds() * float64(rep.GC.Procs))
	}
	rep.GC.Heap = []HeapPoint{}
	for _, p := range g.all.Points() {
		rep.GC.Heap = append(rep.GC.Heap, HeapPoint{Seconds: p.Start.Seconds(), Live: p.HeapLive, Goal: p.HeapGoal})
	}
}

func (r *runner) analyzeCPU() {
	rep := r.rep
	b, err := os.ReadFile(r.cpuFile)
	if err != nil {
		r.problem("%v", err)
		return
	}
	p, err := profile.ParseData(b)
	if err != nil {
		r.problem("CPU profile: %v", err)
		return
	}
	rep.CPU.ProfileSeconds = time.Duration(p.DurationNanos).Seconds()
	total := sumValues(p, len(p.SampleType)-1)
	rep.CPU.CPUSeconds = time.Duration(total).Seconds()
	if rep.CPU.ProfileSeconds > 0 {
		rep.CPU.Utilization = rep.CPU.CPUSeconds / rep.CPU.ProfileSeconds
		// the requests served while the profile ran: it may outlast a -n
		// load whose length was estimated from the warm-up
		if served := rep.RPS * min(rep.CPU.ProfileSeconds, rep.WindowSeconds); served > 0 {
			rep.CPU.SecondsPerRequest = rep.CPU.CPUSeconds / served
		}
	}
	if total > 0 {
		last := len(p.SampleType) - 1
		rep.CPU.GCShare = float64(sumMatching(p, last, "runtime.gcBgMarkWorker", "runtime.gcAssistAlloc", "runtime.bgsweep")) / float64(total)
		rep.CPU.MallocShare = float64(sumMatching(p, last, "runtime.mallocgc")) / float64(total)
	}
	rep.CPUTop = topFuncs(p, "", 15)
	for i := range rep.CPUTop[:min(5, len(rep.CPUTop))] {
		rep.CPUTop[i].CalledFrom = callerIn(p, rep.CPUTop[i].Func)
	}
	r.cpuProfile = p
}

// topFuncs is package report's top of p, by flat value.
func topFuncs(p *profile.Profile, sampleIndex string, n int) []FuncShare {
	o := report.DefaultOptions()
	o.NodeCount, o.SampleIndex = n, sampleIndex
	var buf bytes.Buffer
	if err := report.GenerateJSON(&buf, p.Copy(), report.Top, o); err != nil {
		return []FuncShare{}
	}
	var jr report.JSONReport
	if json.Unmarshal(buf.Bytes(), &jr) != nil {
		return []FuncShare{}
	}
	out := []FuncShare{}
	for _, nd := range jr.Nodes {
		out = append(out, FuncShare{Func: nd.Name, Flat: nd.Flat, Cum: nd.Cum, FlatText: nd.FlatText,
			CumText: nd.CumText, FlatPct: nd.FlatPct / 100, CumPct: nd.CumPct / 100})
	}
	return out
}

func sumValues(p *profile.Profile, i int) int64 {
	var t int64
	for _, s := range p.Sample {
		if i < len(s.Value) {
			t += s.Value[i]
		}
	}
	return t
}

// sumMatching sums the samples with one of the functions on their stack.
func sumMatching(p *profile.Profile, i int, funcs ...string) int64 {
	var t int64
	for _, s := range p.Sample {
		if onStack(s, funcs) {
			t += s.Value[i]
		}
	}
	return t
}

func onStack(s *profile.Sample, funcs []string) bool {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil && slices.Contains(funcs, ln.Function.Name) {
				return true
			}
		}
	}
	return false
}

// delta is the growth of a cumulative profile between the snapshots.
func (r *runner) delta(kind string) *profile.Profile {
	before, after := r.snapStart[kind], r.snapEnd[kind]
	if before == nil || after == nil {
		return nil
	}
	b := before.Copy()
	b.Scale(-1)
	d, err := profile.Merge([]*profile.Profile{b, after.Copy()})
	if err != nil {
		r.problem("%s delta: %v", kind, err)
		return nil
	}
	d.TimeNanos, d.DurationNanos = after.TimeNanos, after.TimeNanos-before.TimeNanos
	d.Sample = slices.DeleteFunc(d.Sample, func(s *profile.Sample) bool {
		return !slices.ContainsFunc(s.Value, func(v int64) bool { return v != 0 })
	})
	return d
}

func sampleIndex(p *profile.Profile, name string) int {
	return slices.IndexFunc(p.SampleType, func(st *profile.ValueType) bool { return st.Type == name })
}

func (r *runner) contention(kind string) []FuncShare {
	d := r.delta(kind)
	if d == nil || len(d.Sample) == 0 {
		return nil
	}
	r.saveProfile(kind+"-delta.pb.gz", d)
	return topFuncs(d, "delay", 10)
}

func (r *runner) saveProfile(name string, p *profile.Profile) {
	var buf bytes.Buffer
	if err := p.Write(&buf); err == nil {
		r.save(name, buf.Bytes())
	}
}

// analyzeGoroutines groups the goroutine dumps of the start and the end
// with package goroutines and compares them.
func (r *runner) analyzeGoroutines() {
	rep := &r.rep.Goroutines
	rep.Groups = []GoroutineGroup{}
	start, err1 := r.readDump("goroutines-start.txt")
	end, err2 := r.readDump("goroutines-end.txt")
	if err1 != nil || err2 != nil {
		return
	}
	end.Compare(start)
	rep.Start, rep.End = int64(start.Total), int64(end.Total)
	for _, g := range end.Groups {
		gg := GoroutineGroup{Top: g.Top().Func, State: g.State, Start: int64(g.BaseCount), End: int64(g.Count)}
		if g.CreatedBy != nil {
			gg.Root = g.CreatedBy.Func
		}
		rep.Groups = append(rep.Groups, gg)
	}
	slices.SortStableFunc(rep.Groups, func(a, b GoroutineGroup) int {
		return cmp.Or(cmp.Compare(b.End-b.Start, a.End-a.Start), cmp.Compare(b.End, a.End))
	})
	rep.Groups = rep.Groups[:min(20, len(rep.Groups))]
	for _, f := range end.Leaks(1) {
		rep.Leaks = append(rep.Leaks, f.Text)
	}
}

func (r *runner) readDump(name string) (*goroutines.Dump, error) {
	f, err := os.Open(filepath.Join(r.o.Dir, name))
	if err != nil {
		return nil, err // not collected: the problems say why
	}
	defer f.Close()
	d := goroutines.NewDump()
	if err := goroutines.Read(name, f, d, goroutines.Options{}); err != nil {
		r.problem("%s: %v", name, err)
		return nil, err
	}
	d.Sort()
	return d, nil
}

// callerIn names the place in the program's own code whose calls spend
// most of fn's flat time: the first frame of user code above fn on the
// stacks where fn is the leaf, as "search.rssSearch (search.go:146)".
func callerIn(p *profile.Profile, fn string) string {
	if userCode(fn) {
		return ""
	}
	last := len(p.SampleType) - 1
	weights := map[string]int64{}
	for _, s := range p.Sample {
		var frames []frame
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function != nil {
					frames = append(frames, frame{ln.Function.Name, ln.Function.Filename, ln.Line})
				}
			}
		}
		if len(frames) == 0 || frames[0].fn != fn {
			continue
		}
		for _, f := range frames[1:] {
			if userCode(f.fn) {
				weights[fmt.Sprintf("%s (%s:%d)", shortFunc(f.fn), filepath.Base(f.file), f.line)] += s.Value[last]
				break
			}
		}
	}
	best, bestW := "", int64(0)
	for k, w := range weights {
		if w > bestW || w == bestW && k < best {
			best, bestW = k, w
		}
	}
	return best
}
