package investigate

import (
	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/loadgen"
	"slices"
)

// A Report is what a run measured and concluded; report.json is its JSON
// form (docs/run.md describes every field).
type Report struct {
	Program []string  `json:"program"`
	URLs    []URLLoad `json:"urls"`
	Pprof   string    `json:"pprof"`
	Dir     string    `json:"dir"`

	Headline      string    `json:"headline"`
	WarmupRPS     float64   `json:"warmup_rps"`
	WindowSeconds float64   `json:"window_seconds"`
	Requests      int64     `json:"requests"`
	Errors        int64     `json:"errors"`
	RPS           float64   `json:"rps"`
	Latency       Quantiles `json:"latency_seconds"`
	Histogram     []Bucket  `json:"latency_histogram"`
	// Rate is the fixed rate of the load in requests per second over
	// all workers (-q), 0 for a closed loop; Workers is -c.
	Rate    float64     `json:"rate_rps"`
	Workers int         `json:"workers"`
	Rounds  []Round     `json:"rounds"`
	CPU     CPUReport   `json:"cpu"`
	CPUTop  []FuncShare `json:"cpu_top"`

	AllocBytesPerRequest float64     `json:"alloc_bytes_per_request"`
	AllocsPerRequest     float64     `json:"allocs_per_request"`
	AllocBytes           int64       `json:"alloc_bytes"`
	HeapInuseGrowth      int64       `json:"heap_inuse_growth_bytes"`
	AllocTop             []AllocSite `json:"alloc_top"`
	BlockTop             []FuncShare `json:"block_top,omitempty"`
	MutexTop             []FuncShare `json:"mutex_top,omitempty"`

	GC         GCReport         `json:"gc"`
	Goroutines GoroutinesReport `json:"goroutines"`
	Trace      TraceReport      `json:"trace"`

	Cost Cost `json:"cost"`

	Findings   []Finding   `json:"findings"`
	Base       *Comparison `json:"base,omitempty"`
	ExitStatus int         `json:"exit_status"`
	Problems   []string    `json:"problems"`
	Artefacts  []string    `json:"artefacts"`

	results []*loadgen.Result // the load of each URL, measured window
}

// LoadResults returns the load generator's result for each URL, in
// order, for a verdict such as loadgen.FailureLimit's.
func (r *Report) LoadResults() []*loadgen.Result { return r.results }

// Cost is what the run spent, for scripts/bench-run: the program's CPU
// over its whole life, perflab's own (load generator, collectors and
// analysis) from the program's start to its end, and every response
// both served, warm-up included.
type Cost struct {
	ProgramCPUSeconds float64 `json:"program_cpu_seconds"`
	PerflabCPUSeconds float64 `json:"perflab_cpu_seconds"`
	Responses         int64   `json:"responses"`
}

// URLLoad is the measured load of one URL.
type URLLoad struct {
	URL       string    `json:"url"`
	Method    string    `json:"method"`
	Responses int64     `json:"responses"`
	Errors    int64     `json:"errors"`
	Non2xx    int64     `json:"non_2xx"`
	RPS       float64   `json:"rps"`
	Seconds   float64   `json:"seconds"`
	Latency   Quantiles `json:"latency_seconds"`
}

// Quantiles of a latency distribution, in seconds.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// A Bucket of the latency histogram: responses with a latency up to Le
// seconds (and above the previous bucket's).
type Bucket struct {
	Le    float64 `json:"le_seconds"`
	Count int64   `json:"count"`
}

// CPUReport is what the CPU profile says in total.
type CPUReport struct {
	ProfileSeconds    float64 `json:"profile_seconds"`
	CPUSeconds        float64 `json:"cpu_seconds"`
	Utilization       float64 `json:"utilization_cores"`
	SecondsPerRequest float64 `json:"cpu_seconds_per_request"`
	GCShare           float64 `json:"gc_share"`     // runtime.gcBgMarkWorker and assists
	MallocShare       float64 `json:"malloc_share"` // runtime.mallocgc
}

// FuncShare is one function's share of a profile.
type FuncShare struct {
	Func     string  `json:"func"`
	File     string  `json:"file,omitempty"`
	Flat     int64   `json:"flat"`
	Cum      int64   `json:"cum"`
	FlatText string  `json:"flat_text,omitempty"`
	CumText  string  `json:"cum_text,omitempty"`
	FlatPct  float64 `json:"flat_share"`
	CumPct   float64 `json:"cum_share"`
	// CalledFrom is, for a library function among the first of the CPU
	// top, the place in the program's code whose calls spend most of its
	// flat time.
	CalledFrom string `json:"called_from,omitempty"`
}

// An AllocSite is a place in the program's code where memory was
// allocated in the measured window, and the library function it called if
// the allocation happened there: perflab escapes's site (the innermost
// line of the program's own source) when the source is on this machine,
// else the first frame of the program's own code (a main package or an
// import path with a domain) on the allocating stack.
type AllocSite struct {
	Func        string   `json:"func"`
	File        string   `json:"file"`
	Line        int64    `json:"line"`
	Callee      string   `json:"callee,omitempty"`
	Bytes       int64    `json:"bytes"`
	Objects     int64    `json:"objects"`
	BytesShare  float64  `json:"bytes_share"`
	BytesPerReq float64  `json:"bytes_per_request"`
	Reasons     []string `json:"reasons"`
	// Category, CategoryTitle and Hint are package compilenotes's for
	// the site (perflab escapes prints the same), when the program's
	// source was there to build; empty otherwise.
	Category      string `json:"category,omitempty"`
	CategoryTitle string `json:"category_title,omitempty"`
	Hint          string `json:"hint,omitempty"`
}

// GCReport is the collector in the measured window, from gctrace.
type GCReport struct {
	Cycles               int     `json:"cycles"`
	CyclesPer1000        float64 `json:"cycles_per_1000_requests"`
	CPUPercent           float64 `json:"cpu_percent"`
	PauseP99             float64 `json:"pause_p99_seconds"`
	PauseMax             float64 `json:"pause_max_seconds"`
	HeapLiveFirst        int64   `json:"heap_live_first_bytes"`
	HeapLiveLast         int64   `json:"heap_live_last_bytes"`
	HeapLiveMax          int64   `json:"heap_live_max_bytes"`
	HeapTrendBytesPerSec float64 `json:"heap_trend_bytes_per_second"`
	LeakSuspected        bool    `json:"leak_suspected"`
	Verdict              string  `json:"verdict"`
	TotalCycles          int     `json:"total_cycles"`
	Procs                int     `json:"procs"`
	// Heap is the live heap and goal at each GC of the whole run,
	// thinned evenly past godebug's bound on points.
	Heap []HeapPoint `json:"heap_over_time"`
}

// A HeapPoint is the heap at the end of one GC.
type HeapPoint struct {
	Seconds float64 `json:"seconds"` // since the program started
	Live    int64   `json:"live_bytes"`
	Goal    int64   `json:"goal_bytes"`
}

// GoroutinesReport compares the goroutine dumps of the start and the end,
// as package goroutines groups them.
type GoroutinesReport struct {
	Start  int64            `json:"start"`
	End    int64            `json:"end"`
	Groups []GoroutineGroup `json:"groups"` // the most grown first, at most 20
	Leaks  []string         `json:"leaks,omitempty"`
}

// A GoroutineGroup is the goroutines with the same frames, state and
// creator.
type GoroutineGroup struct {
	Top   string `json:"top"`   // the first frame in user code, else the innermost
	State string `json:"state"` // "IO wait", "chan receive", ...
	Root  string `json:"root"`  // the function whose go statement started them
	Start int64  `json:"start"` // how many at the start
	End   int64  `json:"end"`
}

// TraceReport is the execution trace taken during the load, as package
// exectrace summarises it.
type TraceReport struct {
	File            string   `json:"file,omitempty"`
	Seconds         float64  `json:"seconds"`
	GOMAXPROCS      int      `json:"gomaxprocs"`
	BusyPs          float64  `json:"busy_ps"` // mean number of Ps running goroutines
	GoroutinesMax   int      `json:"goroutines_max"`
	SchedLatencyP99 float64  `json:"sched_latency_p99_seconds"` // runnable until running
	LockWait        float64  `json:"lock_wait_seconds"`         // goroutines' time waiting for mutexes
	Verdicts        []string `json:"verdicts,omitempty"`
	Summary         []string `json:"summary,omitempty"` // exectrace's text summary, line by line
	// Timeline and Spans are drawn in report.html: the trace in columns,
	// and its longest tasks and regions.
	Timeline *exectrace.Tiles `json:"-"`
	Spans    []exectrace.Span `json:"-"`
}

// A Finding is one conclusion, with its evidence and an estimate of the
// share of the program's cost it stands for.
type Finding struct {
	Kind     string  `json:"kind"` // alloc, cpu, gc, latency, errors, goroutines, heap
	Title    string  `json:"title"`
	Evidence string  `json:"evidence"`
	Where    string  `json:"where,omitempty"`
	Effect   float64 `json:"effect_share"`
}

func newReport(o *Options) *Report {
	return &Report{
		Program: append([]string{o.Program}, o.Args...), Pprof: o.Pprof, Dir: o.Dir,
		Findings: []Finding{}, Problems: []string{}, Artefacts: []string{},
		CPUTop: []FuncShare{}, AllocTop: []AllocSite{}, Rounds: []Round{},
	}
}

func (r *Report) artefact(name string) {
	if !slices.Contains(r.Artefacts, name) {
		r.Artefacts = append(r.Artefacts, name)
	}
}
