package main

import (
	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/godebug"
)

// gcCharts returns the charts of a gctrace: heap sizes and goal, pauses,
// and the runtime's GC CPU share, over time.
func gcCharts(ps []godebug.GCPoint) []chart.Chart {
	n := len(ps)
	x := make(chart.Values, n)
	start, end, live, goal := make(chart.Values, n), make(chart.Values, n), make(chart.Values, n), make(chart.Values, n)
	retained := make(chart.Values, n)
	pause, limit, cpu := make(chart.Values, n), make(chart.Values, n), make(chart.Values, n)
	for i, p := range ps {
		x[i] = p.Start.Seconds()
		start[i], end[i] = float64(p.HeapStart), float64(p.HeapEnd)
		live[i], goal[i] = float64(p.HeapLive), float64(p.HeapGoal)
		retained[i] = float64(p.Retained())
		pause[i], limit[i] = p.Pause.Seconds(), 100e-6
		cpu[i] = float64(p.CPUPercent)
	}
	return []chart.Chart{
		{
			Title: "Heap at each GC", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "heap", Unit: chart.Bytes, X: x,
			Series: []chart.Series{
				{Label: "live", Y: live, Color: "#1f77b4"},
				{Label: "start", Y: start, Color: "#ff7f0e"},
				{Label: "end", Y: end, Color: "#2ca02c"},
				{Label: "goal", Y: goal, Color: "#d62728"},
				{Label: "retained (live less allocated during GC)", Y: retained, Color: "#9467bd"},
			},
		},
		{
			Title: "Stop-the-world pause per GC", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "pause", Unit: chart.Seconds, X: x,
			Series: []chart.Series{
				{Label: "pause", Style: chart.Points, Y: pause, Color: "#1f77b4"},
				{Label: "100 µs", Y: limit, Color: "#999999"},
			},
		},
		{
			Title: "GC CPU since start (runtime's figure)", XLabel: "time since start", XUnit: chart.Seconds,
			YLabel: "GC CPU", Unit: chart.Percent, X: x,
			Series: []chart.Series{{Label: "GC CPU", Y: cpu, Color: "#1f77b4"}},
		},
	}
}

// schedCharts returns the charts of a schedtrace: run-queue lengths and
// processor and thread counts over time.
func schedCharts(ps []godebug.SchedPoint) []chart.Chart {
	n := len(ps)
	x := make(chart.Values, n)
	global, total, longest := make(chart.Values, n), make(chart.Values, n), make(chart.Values, n)
	procs, idle, threads, spinning := make(chart.Values, n), make(chart.Values, n), make(chart.Values, n), make(chart.Values, n)
	for i, p := range ps {
		x[i] = p.At.Seconds()
		global[i], total[i], longest[i] = float64(p.RunQueue), float64(p.LocalTotal), float64(p.LocalMax)
		procs[i], idle[i] = float64(p.GOMAXPROCS), float64(p.IdleProcs)
		threads[i], spinning[i] = float64(p.Threads), float64(p.Spinning)
	}
	return []chart.Chart{
		{
			Title: "Run-queue lengths", XLabel: "time", XUnit: chart.Seconds,
			YLabel: "runnable goroutines", Unit: chart.Count, X: x,
			Series: []chart.Series{
				{Label: "global queue", Y: global, Color: "#1f77b4"},
				{Label: "all per-P queues", Y: total, Color: "#ff7f0e"},
				{Label: "longest per-P queue", Y: longest, Color: "#d62728"},
			},
		},
		{
			Title: "Processors and threads", XLabel: "time", XUnit: chart.Seconds,
			YLabel: "count", Unit: chart.Count, X: x,
			Series: []chart.Series{
				{Label: "idle Ps", Y: idle, Color: "#1f77b4"},
				{Label: "GOMAXPROCS", Y: procs, Color: "#999999"},
				{Label: "threads", Y: threads, Color: "#2ca02c"},
				{Label: "spinning", Y: spinning, Color: "#ff7f0e"},
			},
		},
	}
}
