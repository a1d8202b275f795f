package exectrace_test

import (
	"bytes"
	"testing"

	"github.com/perflab/perflab/exectrace"
)

// TestSpanIndexJoinsGenerations: the tasks and regions of a trace read
// generation by generation, two at a time, are those of one pass over it:
// a task begun in one generation and ended in another is one bar.
func TestSpanIndexJoinsGenerations(t *testing.T) {
	data := manyGenerationsTasksTrace(t)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	one := exectrace.NewSpanCollector(ix.Origin(), 1<<20)
	a := exectrace.NewAnalyzer()
	if _, err := exectrace.Read(bytes.NewReader(data), one, a); err != nil {
		t.Fatal(err)
	}
	want, sum := one.Spans(), a.Finish()
	if len(want) == 0 || len(sum.Tasks) == 0 {
		t.Fatalf("one pass: %d spans, %d task types: the test needs tasks", len(want), len(sum.Tasks))
	}
	var tasks int64
	for _, l := range sum.Tasks {
		tasks += l.Count
	}
	across := 0 // tasks and regions that cross from one generation to the next
	for _, sp := range want {
		for i := 1; i < ix.Generations(); i++ {
			if b, _ := ix.GenerationTimes(i); sp.Start < b && sp.End > b {
				across++
				break
			}
		}
	}
	if across == 0 {
		t.Fatalf("no task or region crosses a generation's start: nothing to join")
	}
	x := exectrace.NewSpanIndex(ix, 1<<20)
	if err := exectrace.NewOverview(ix, 100).Load(t.Context(), bytes.NewReader(data), 2, x); err != nil {
		t.Fatal(err)
	}
	got := x.Window(0, 1<<62, 1<<20)
	count := func(spans []exectrace.Span, kind string) (n int64) {
		for _, sp := range spans {
			if sp.Kind == kind && !sp.OpenStart && !sp.OpenEnd {
				n++
			}
		}
		return n
	}
	if g, w := count(got, "task"), count(want, "task"); g != w || g != tasks {
		t.Errorf("generation by generation: %d tasks, one pass %d, the summary %d", g, w, tasks)
	}
	if g, w := count(got, "region"), count(want, "region"); g != w {
		t.Errorf("generation by generation: %d regions, one pass %d", g, w)
	}
	for _, sp := range got {
		if sp.End < sp.Start || sp.Name == "" && sp.Kind == "region" {
			t.Errorf("span %+v", sp)
		}
	}
	// The longest are kept, whatever the bound.
	top := x.Window(0, 1<<62, 3)
	if len(top) != 3 {
		t.Fatalf("Window(n=3) gave %d spans", len(top))
	}
	shortest := top[0].End - top[0].Start
	for _, sp := range top {
		shortest = min(shortest, sp.End-sp.Start)
	}
	longer := 0
	for _, sp := range got {
		if sp.End-sp.Start > shortest {
			longer++
		}
	}
	if longer > 2 {
		t.Errorf("Window(n=3) kept a span of %v, and %d others are longer", shortest, longer)
	}
}
