package investigate

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/units"
)

// findings draws the report's conclusions, biggest estimated effect first.
// An effect is the share of the program's CPU the finding stands for:
// an allocation site's share of the bytes times the share of CPU spent
// allocating and collecting; a function's flat share of CPU; the GC's CPU.
func findings(rep *Report) []Finding {
	var out []Finding
	memCost := max(rep.CPU.GCShare, rep.GC.CPUPercent/100) + rep.CPU.MallocShare
	for _, s := range rep.AllocTop[:min(3, len(rep.AllocTop))] {
		if s.BytesShare < 0.05 {
			break
		}
		out = append(out, allocFinding(s, memCost))
	}
	if rep.Requests > 0 && rep.GC.Cycles > 0 {
		out = append(out, Finding{Kind: "gc",
			Title: fmt.Sprintf("GC ran %s times per 1000 requests, using %.1f%% of the CPU", trim(rep.GC.CyclesPer1000), rep.GC.CPUPercent),
			Evidence: fmt.Sprintf("%d collections in %.1fs of load (%d requests); %s allocated per request; pause p99 %s",
				rep.GC.Cycles, rep.WindowSeconds, rep.Requests, units.Bytes(int64(rep.AllocBytesPerRequest)), units.Seconds(rep.GC.PauseP99)),
			Where:  "the allocation sites above; GOGC and GOMEMLIMIT",
			Effect: max(rep.GC.CPUPercent/100, rep.CPU.GCShare)})
	}
	out = append(out, cpuFindings(rep)...)
	out = append(out, healthFindings(rep)...)
	slices.SortStableFunc(out, func(a, b Finding) int { return cmp.Compare(b.Effect, a.Effect) })
	if out == nil {
		out = []Finding{}
	}
	return out
}

func allocFinding(s AllocSite, memCost float64) Finding {
	where := fmt.Sprintf("%s (%s:%d)", shortFunc(s.Func), filepath.Base(s.File), s.Line)
	title := fmt.Sprintf("%.0f%% of bytes allocated come from %s called in %s, %s per request",
		100*s.BytesShare, shortFunc(s.Callee), where, units.Bytes(int64(s.BytesPerReq)))
	if s.Callee == "" {
		title = fmt.Sprintf("%.0f%% of bytes allocated come from %s, %s per request", 100*s.BytesShare, where, units.Bytes(int64(s.BytesPerReq)))
	}
	ev := fmt.Sprintf("%s in %d objects in the measured window", units.Bytes(s.Bytes), s.Objects)
	if len(s.Reasons) > 0 {
		ev += "; the compiler says: " + strings.Join(s.Reasons, "; ")
	}
	if s.CategoryTitle != "" {
		ev += "; " + s.CategoryTitle + ": " + s.Hint
	}
	return Finding{Kind: "alloc", Title: title, Evidence: ev,
		Where: fmt.Sprintf("%s:%d", s.File, s.Line), Effect: s.BytesShare * memCost}
}

// cpuFindings names the hottest functions by flat CPU.
func cpuFindings(rep *Report) []Finding {
	var out []Finding
	n := 0
	for _, f := range rep.CPUTop {
		if strings.HasPrefix(f.Func, "runtime.") {
			continue // preemption, GC and scheduling: the other findings' business
		}
		if f.FlatPct < 0.10 || n == 2 {
			break
		}
		n++
		title := fmt.Sprintf("%.0f%% of CPU time is spent in %s itself", 100*f.FlatPct, shortFunc(f.Func))
		where := f.Func
		if f.CalledFrom != "" {
			title += ", most of it called from " + f.CalledFrom
			where = f.CalledFrom
		}
		out = append(out, Finding{Kind: "cpu", Title: title,
			Evidence: fmt.Sprintf("flat %s, cumulative %s (%.0f%%) of %.1f s of CPU profile", f.FlatText, f.CumText, 100*f.CumPct, rep.CPU.CPUSeconds),
			Where:    where, Effect: f.FlatPct})
	}
	return out
}

// healthFindings are the failures and trends that need no profile.
func healthFindings(rep *Report) []Finding {
	var out []Finding
	total := rep.Requests + rep.Errors
	if rep.Errors > 0 && total > 0 {
		share := float64(rep.Errors) / float64(total)
		out = append(out, Finding{Kind: "errors",
			Title:    fmt.Sprintf("%.1f%% of requests failed or got a non-2xx status", 100*share),
			Evidence: fmt.Sprintf("%d of %d requests", rep.Errors, total), Effect: share})
	}
	if rep.Latency.P50 > 0 && rep.Latency.P99 > 10*rep.Latency.P50 {
		out = append(out, Finding{Kind: "latency",
			Title:    fmt.Sprintf("p99 latency is %.0fx the median", rep.Latency.P99/rep.Latency.P50),
			Evidence: fmt.Sprintf("p50 %s, p99 %s, max %s; GC pause p99 %s", units.Seconds(rep.Latency.P50), units.Seconds(rep.Latency.P99), units.Seconds(rep.Latency.Max), units.Seconds(rep.GC.PauseP99)),
			Where:    "the execution trace (blocking, scheduler latency) and the GC", Effect: 0.05})
	}
	if f, ok := goroutineFinding(rep); ok {
		out = append(out, f)
	}
	if t := rep.Trace; t.SchedLatencyP99 > 0.005 {
		out = append(out, Finding{Kind: "sched",
			Title:    fmt.Sprintf("runnable goroutines waited up to %s (p99) for a processor", units.Seconds(t.SchedLatencyP99)),
			Evidence: fmt.Sprintf("execution trace: %.2f of %d Ps busy on average", t.BusyPs, t.GOMAXPROCS),
			Where:    t.File + " (perflab trace)", Effect: 0.03})
	}
	if rep.GC.LeakSuspected {
		out = append(out, Finding{Kind: "heap", Title: "the live heap keeps growing: possible leak",
			Evidence: rep.GC.Verdict, Where: "heap-end.pb.gz (perflab top -sample_index=inuse_space)", Effect: 0.02})
	}
	return out
}

// shortFunc drops a function's import path, keeping its package name:
// github.com/a/b/search.rssSearch → search.rssSearch.
func shortFunc(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

func trim(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2g", x)
}

// headline is the report in one line.
func headline(rep *Report) string {
	parts := []string{fmt.Sprintf("%.0f req/s", rep.RPS), "p99 " + units.Seconds(rep.Latency.P99)}
	if rep.AllocBytes > 0 {
		parts = append(parts, fmt.Sprintf("%s and %.0f objects allocated per request", units.Bytes(int64(rep.AllocBytesPerRequest)), rep.AllocsPerRequest))
	}
	parts = append(parts, fmt.Sprintf("%s GCs per 1000 requests", trim(rep.GC.CyclesPer1000)), fmt.Sprintf("%.1f%% CPU in GC", rep.GC.CPUPercent))
	return strings.Join(parts, ", ")
}

// goroutineFinding reports the group of goroutines that grew most, when
// it grew by at least 10 and by one for every 20 requests or more: a
// number of goroutines that follows the load, not a pool.
func goroutineFinding(rep *Report) (Finding, bool) {
	g := rep.Goroutines
	if len(g.Groups) == 0 || rep.Requests == 0 {
		return Finding{}, false
	}
	top := g.Groups[0] // the most grown first
	grew := top.End - top.Start
	if grew < 10 || float64(grew) < float64(rep.Requests)/20 {
		return Finding{}, false
	}
	ev := fmt.Sprintf("%d goroutines at the start, %d at the end", g.Start, g.End)
	if len(g.Leaks) > 0 {
		ev += "; " + g.Leaks[0]
	}
	return Finding{Kind: "goroutines",
		Title: fmt.Sprintf("goroutines in %s grew by %d during %d requests (%.2f per request), %s",
			shortFunc(top.Top), grew, rep.Requests, float64(grew)/float64(rep.Requests), top.State),
		Evidence: ev, Where: "goroutines-end.txt (perflab goroutines -base goroutines-start.txt goroutines-end.txt)",
		Effect: 0.05}, true
}
