package godebug

import (
	"fmt"
	"time"
)

// A Record is one parsed line of runtime trace output: *GC, *Scan,
// *PacerStart, *PacerEnd, *Sched, *SchedP, *SchedM, *SchedG, *Note, *Text
// or *SyntaxError.
type Record interface {
	record()
}

// A GC is one gctrace=1 line, written at the end of each collection.
type GC struct {
	N          int           // GC number, counting from 1
	Start      time.Duration // when the cycle started, since program start
	CPUPercent int           // share of CPU spent in GC since program start
	LeakCheck  bool          // "(checking for goroutine leaks)" (Go 1.26)
	Forced     bool          // "(forced)": started by runtime.GC

	// Wall-clock phases: stop-the-world sweep termination, concurrent
	// mark and scan, stop-the-world mark termination.
	SweepTerm, Mark, MarkTerm time.Duration

	// CPU time of the phases; mark is split into assist, background
	// (dedicated and fractional workers) and idle marking.
	SweepTermCPU, AssistCPU, BackgroundCPU, IdleCPU, MarkTermCPU time.Duration

	// Heap sizes in bytes (the runtime prints whole MB): at the start of
	// the cycle, at its end, the live (marked) heap, and the goal.
	HeapStart, HeapEnd, HeapLive, HeapGoal int64

	// Scannable stack and global sizes in bytes, printed since Go 1.21;
	// HasScanSizes reports whether the line had them.
	Stacks, Globals int64
	HasScanSizes    bool

	Procs int // GOMAXPROCS during the cycle
}

// Pause returns the stop-the-world time of the cycle: sweep termination
// plus mark termination.
func (g *GC) Pause() time.Duration { return g.SweepTerm + g.MarkTerm }

// CPU returns the CPU time of the whole cycle.
func (g *GC) CPU() time.Duration {
	return g.SweepTermCPU + g.AssistCPU + g.BackgroundCPU + g.IdleCPU + g.MarkTermCPU
}

// A Scan is one gctrace=2 "scan:" line: objects (and, with the Green Tea
// collector, spans) scanned in the last cycle, in total or for one size
// class.
type Scan struct {
	Total   bool  // the "scan: total" line
	Class   int64 // object size of the class in bytes; 0 for large objects ("L")
	Objects int64
	Spans   int64 // -1 when the line has no span count
}

// A PacerStart is the gcpacertrace=1 line written when a cycle starts.
type PacerStart struct {
	AssistRatio       float64
	HeapScan          int64 // bytes of scannable heap (printed in MB)
	HeapLive          int64 // heap at the start of the cycle, bytes
	HeapGoal          int64 // bytes
	DedicatedWorkers  int
	FractionalWorkers float64 // fractional utilization goal
}

// A PacerEnd is the gcpacertrace=1 line written when marking ends.
type PacerEnd struct {
	UtilizationPercent int     // achieved GC CPU utilization
	GoalPercent        int     // expected utilization (normally 25)
	ScanWork           []int64 // heap, stack and globals scan work, bytes
	ExpectedWork       int64   // bytes
	Trigger            int64   // heap size that triggered the cycle, bytes
	Live               int64   // heap size at the end of marking, bytes
	DeltaGoal          int64   // Live minus the heap goal, bytes
	ConsMark           float64
}

// A Sched is one schedtrace summary line.
type Sched struct {
	At              time.Duration // since the first schedtrace line
	GOMAXPROCS      int
	IdleProcs       int
	Threads         int
	SpinningThreads int
	NeedSpinning    int // -1 before Go 1.21
	IdleThreads     int
	RunQueue        int     // global run queue length
	LocalRunQueues  []int   // per-P run queue lengths; nil with scheddetail=1
	SchedTicks      []int64 // per-P schedule ticks (Go 1.25 and later)

	// Detailed is set for scheddetail=1, whose P, M and G lines follow
	// as separate records.
	Detailed     bool
	GCWaiting    bool
	NMIdleLocked int
	StopWait     int
	SysmonWait   bool
}

// A SchedP is one "  P0: status=..." line of a scheddetail=1 block.
type SchedP struct {
	ID          int
	Status      int
	SchedTick   int64
	SyscallTick int64
	M           int64 // -1 for nil
	RunQueue    int
	GFree       int
	Timers      int
}

// A SchedM is one "  M0: p=..." line of a scheddetail=1 block. Absent
// references are -1.
type SchedM struct {
	ID         int64
	P          int64
	CurG       int64
	Mallocing  int
	Throwing   int
	PreemptOff string
	Locks      int
	Dying      int
	Spinning   bool
	Blocked    bool
	LockedG    int64
}

// A SchedG is one "  G1: status=4(chan receive) ..." line of a
// scheddetail=1 block.
type SchedG struct {
	ID         int64
	Status     int
	WaitReason string // may be empty, may contain spaces and parentheses
	M          int64  // -1 for nil
	LockedM    int64  // -1 for nil
}

// A Note is a runtime line that gctrace prints besides the GC lines and
// that perflab recognises without analysing: "GC forced", scavenger
// lines and the pacer's sweep line.
type Note struct {
	Kind string // "forced", "scavenger" or "sweep"
	Text string
}

// A Text is a line that is not runtime trace output, typically the
// program's own standard error. Scanner.Bytes has it verbatim.
type Text struct{}

// A SyntaxError is a line that looks like a trace line but does not
// parse. It is a Record, so that scanning goes on past it.
type SyntaxError struct {
	Line int    // 1-based line number
	Kind string // "gc", "scan", "pacer", "SCHED", "P", "M" or "G"
	Msg  string
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d: malformed %s trace line: %s", e.Line, e.Kind, e.Msg)
}

func (*GC) record()          {}
func (*Scan) record()        {}
func (*PacerStart) record()  {}
func (*PacerEnd) record()    {}
func (*Sched) record()       {}
func (*SchedP) record()      {}
func (*SchedM) record()      {}
func (*SchedG) record()      {}
func (*Note) record()        {}
func (*Text) record()        {}
func (*SyntaxError) record() {}
