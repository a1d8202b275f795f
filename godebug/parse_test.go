package godebug

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// Lines in every format the runtime has printed from Go 1.19 to 1.26,
// copied from real programs' standard error and from the runtime sources.
func TestParseGC(t *testing.T) {
	tests := []struct {
		line string
		want GC
	}{
		{ // Go 1.19 and 1.20: no stacks and globals
			line: "gc 318 @36.750s 0%: 0.022+0.27+0.040 ms clock, 0.13+0.60/0.43/0.031+0.24 ms cpu, 4->4->0 MB, 5 MB goal, 8 P",
			want: GC{N: 318, Start: 36750 * time.Millisecond, SweepTerm: ms(0.022), Mark: ms(0.27), MarkTerm: ms(0.040),
				SweepTermCPU: ms(0.13), AssistCPU: ms(0.60), BackgroundCPU: ms(0.43), IdleCPU: ms(0.031), MarkTermCPU: ms(0.24),
				HeapStart: 4 << 20, HeapEnd: 4 << 20, HeapGoal: 5 << 20, Procs: 8},
		},
		{ // large numbers, whole milliseconds
			line: "gc 732 @354.731s 1%: 8.0+28+2.5 ms clock, 32+2.4/18/0+10 ms cpu, 7->10->5 MB, 9 MB goal, 4 P",
			want: GC{N: 732, Start: 354731 * time.Millisecond, CPUPercent: 1, SweepTerm: ms(8), Mark: ms(28), MarkTerm: ms(2.5),
				SweepTermCPU: ms(32), AssistCPU: ms(2.4), BackgroundCPU: ms(18), MarkTermCPU: ms(10),
				HeapStart: 7 << 20, HeapEnd: 10 << 20, HeapLive: 5 << 20, HeapGoal: 9 << 20, Procs: 4},
		},
		{ // Go 1.21 to 1.26, forced by runtime.GC
			line: "gc 1 @0.008s 15%: 4.3+0.30+0.004 ms clock, 8.6+0/1.1/0+0.008 ms cpu, 0->0->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)",
			want: GC{N: 1, Start: 8 * time.Millisecond, CPUPercent: 15, Forced: true, SweepTerm: ms(4.3), Mark: ms(0.30), MarkTerm: ms(0.004),
				SweepTermCPU: ms(8.6), BackgroundCPU: ms(1.1), MarkTermCPU: ms(0.008), HeapGoal: 4 << 20, HasScanSizes: true, Procs: 2},
		},
		{ // the runtime doc's spelling "#MB globals"
			line: "gc 2 @0.033s 6%: 0.29+7.2+0.20 ms clock, 0.58+0/0.18/4.0+0.41 ms cpu, 3->4->3 MB, 4 MB goal, 1 MB stacks, 2MB globals, 2 P",
			want: GC{N: 2, Start: 33 * time.Millisecond, CPUPercent: 6, SweepTerm: ms(0.29), Mark: ms(7.2), MarkTerm: ms(0.20),
				SweepTermCPU: ms(0.58), BackgroundCPU: ms(0.18), IdleCPU: ms(4.0), MarkTermCPU: ms(0.41),
				HeapStart: 3 << 20, HeapEnd: 4 << 20, HeapLive: 3 << 20, HeapGoal: 4 << 20, Stacks: 1 << 20, Globals: 2 << 20, HasScanSizes: true, Procs: 2},
		},
		{ // Go 1.26 goroutine leak detection
			line: "gc 5 @1.200s 2% (checking for goroutine leaks): 0.010+0.5+0.020 ms clock, 0.020+0/0.4/0+0.040 ms cpu, 5->5->1 MB, 6 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)",
			want: GC{N: 5, Start: 1200 * time.Millisecond, CPUPercent: 2, LeakCheck: true, Forced: true, SweepTerm: ms(0.010), Mark: ms(0.5), MarkTerm: ms(0.020),
				SweepTermCPU: ms(0.020), BackgroundCPU: ms(0.4), MarkTermCPU: ms(0.040),
				HeapStart: 5 << 20, HeapEnd: 5 << 20, HeapLive: 1 << 20, HeapGoal: 6 << 20, HasScanSizes: true, Procs: 2},
		},
	}
	for _, tt := range tests {
		rec := parseOne(t, tt.line)
		g, ok := rec.(*GC)
		if !ok {
			t.Errorf("%q: got %#v, want *GC", tt.line, rec)
			continue
		}
		if *g != tt.want {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tt.line, *g, tt.want)
		}
		if g.Pause() != tt.want.SweepTerm+tt.want.MarkTerm {
			t.Errorf("%q: Pause() = %v", tt.line, g.Pause())
		}
	}
}

func TestParseOther(t *testing.T) {
	tests := []struct {
		line string
		want Record
	}{
		{"scan: total 24+27+15=66 objs, 11+2=13 spans", &Scan{Total: true, Objects: 66, Spans: 13}},
		{"scan: class 16B 0+7+0=7 objs, 3+0=3 spans", &Scan{Class: 16, Objects: 7, Spans: 3}},
		{"scan: class L 32 objs", &Scan{Objects: 32, Spans: -1}},
		{"scan: total 131 objs", &Scan{Total: true, Objects: 131, Spans: -1}},
		{"pacer: assist ratio=1.0742090184354758 (scan 2 MB in 3->4 MB) workers=0+0.25",
			&PacerStart{AssistRatio: 1.0742090184354758, HeapScan: 2 << 20, HeapLive: 3 << 20, HeapGoal: 4 << 20, FractionalWorkers: 0.25}},
		{"pacer: assist ratio=+1.074209e+000 (scan 2 MB in 3->4 MB) workers=1++2.500000e-001",
			&PacerStart{AssistRatio: 1.074209, HeapScan: 2 << 20, HeapLive: 3 << 20, HeapGoal: 4 << 20, DedicatedWorkers: 1, FractionalWorkers: 0.25}},
		{"pacer: 25% CPU (25 exp.) for 1361016+2608+154698 B work (206970 B exp.) in 4001632 B -> 5197664 B (∆goal 1003360, cons/mark 0)",
			&PacerEnd{UtilizationPercent: 25, GoalPercent: 25, ScanWork: []int64{1361016, 2608, 154698}, ExpectedWork: 206970,
				Trigger: 4001632, Live: 5197664, DeltaGoal: 1003360}},
		{"pacer: 30% CPU (25 exp.) for 100+5+0 B work (90 B exp.) in 10 B -> 20 B (∆goal -5, cons/mark +1.500000e-001)",
			&PacerEnd{UtilizationPercent: 30, GoalPercent: 25, ScanWork: []int64{100, 5, 0}, ExpectedWork: 90, Trigger: 10, Live: 20, DeltaGoal: -5, ConsMark: 0.15}},
		{"pacer: sweep done at heap size 0MB; allocated 0MB during sweep; swept 40 pages at 1.3e-05 pages/byte",
			&Note{Kind: "sweep", Text: "pacer: sweep done at heap size 0MB; allocated 0MB during sweep; swept 40 pages at 1.3e-05 pages/byte"}},
		{"GC forced", &Note{Kind: "forced", Text: "GC forced"}},
		{"scav 0 KiB work (bg), 0 KiB work (eager), 1024 KiB now, 90% util", &Note{Kind: "scavenger", Text: "scav 0 KiB work (bg), 0 KiB work (eager), 1024 KiB now, 90% util"}},
		{"SCHED 10065ms: gomaxprocs=8 idleprocs=8 threads=10 spinningthreads=0 idlethreads=3 runqueue=0 [0 0 0 0 0 0 0 0]",
			&Sched{At: 10065 * time.Millisecond, GOMAXPROCS: 8, IdleProcs: 8, Threads: 10, IdleThreads: 3, NeedSpinning: -1, LocalRunQueues: []int{0, 0, 0, 0, 0, 0, 0, 0}}},
		{"SCHED 9056ms: gomaxprocs=1 idleprocs=0 threads=4 spinningthreads=0 needspinning=0 idlethreads=1 runqueue=32 [62]",
			&Sched{At: 9056 * time.Millisecond, GOMAXPROCS: 1, Threads: 4, IdleThreads: 1, RunQueue: 32, LocalRunQueues: []int{62}}},
		{"SCHED 305ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=1 needspinning=1 idlethreads=2 runqueue=0 [ 3 0 ] schedticks=[ 2614 3002 ]",
			&Sched{At: 305 * time.Millisecond, GOMAXPROCS: 2, IdleProcs: 1, Threads: 4, SpinningThreads: 1, NeedSpinning: 1, IdleThreads: 2,
				LocalRunQueues: []int{3, 0}, SchedTicks: []int64{2614, 3002}}},
		{ // printed by Go 1.26 at startup while main was locked to its thread
			"SCHED 0ms: gomaxprocs=2 idleprocs=0 threads=4 spinningthreads=1 needspinning=0 idlethreads=1 runqueue=0 gcwaiting=false nmidlelocked=-1 stopwait=0 sysmonwait=false",
			&Sched{GOMAXPROCS: 2, Threads: 4, SpinningThreads: 1, IdleThreads: 1, NMIdleLocked: -1, Detailed: true}},
	}
	for _, tt := range tests {
		if got := parseOne(t, tt.line); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\ngot  %#v\nwant %#v", tt.line, got, tt.want)
		}
	}
}

func TestSchedDetailBlock(t *testing.T) {
	in := `SCHED 0ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 gcwaiting=false nmidlelocked=0 stopwait=0 sysmonwait=false
  P0: status=1 schedtick=1 syscalltick=0 m=0 runqsize=3 gfreecnt=0 timerslen=0
  P1: status=0 schedtick=4 syscalltick=0 m=-1 runqsize=0 gfreecnt=0 timerslen=1
  M1: p=nil curg=nil mallocing=0 throwing=0 preemptoff= locks=2 dying=0 spinning=false blocked=false lockedg=nil
  M0: p=0 curg=1 mallocing=0 throwing=0 preemptoff=gc stop the world locks=2 dying=0 spinning=false blocked=false lockedg=1
  G1: status=2(chan receive) m=0 lockedm=0
  G7: status=4(GC worker (idle)) m=nil lockedm=-1
  G6: status=1() m=nil lockedm=nil
hello from the program
  G9: status=1() m=nil lockedm=nil
GC forced
  P0: not a trace line any more
`
	var got []Record
	s := NewScanner(strings.NewReader(in))
	for s.Scan() {
		got = append(got, s.Result())
	}
	want := []Record{
		&Sched{GOMAXPROCS: 2, IdleProcs: 1, Threads: 4, IdleThreads: 2, Detailed: true},
		&SchedP{ID: 0, Status: 1, SchedTick: 1, M: 0, RunQueue: 3},
		&SchedP{ID: 1, SchedTick: 4, M: -1, Timers: 1},
		&SchedM{ID: 1, P: -1, CurG: -1, Locks: 2, LockedG: -1},
		&SchedM{ID: 0, P: 0, CurG: 1, PreemptOff: "gc stop the world", Locks: 2, LockedG: 1},
		&SchedG{ID: 1, Status: 2, WaitReason: "chan receive", M: 0, LockedM: 0},
		&SchedG{ID: 7, Status: 4, WaitReason: "GC worker (idle)", M: -1, LockedM: -1},
		&SchedG{ID: 6, Status: 1, M: -1, LockedM: -1},
		&Text{},
		&SchedG{ID: 9, Status: 1, M: -1, LockedM: -1},
		&Note{Kind: "forced", Text: "GC forced"},
		&Text{},
	}
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			if i >= len(got) || i >= len(want) || !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("record %d differs", i)
			}
		}
		t.Fatalf("got %d records, want %d", len(got), len(want))
	}
	var a SchedAnalyzer
	for _, r := range got {
		a.Add(r)
	}
	sum := a.Summary()
	if sum.LocalRunQueue.Max != 3 || sum.WaitReasons["GC worker (idle)"] != 1 || sum.WaitReasons[""] != 2 {
		t.Errorf("detail summary: local queue max %d, wait reasons %v", sum.LocalRunQueue.Max, sum.WaitReasons)
	}
}

func TestMalformedAndPassThrough(t *testing.T) {
	in := "starting\r\n" +
		"gc 1 @0.1s 2%: 0.1+garbage\n" +
		"0.2+0.3 ms clock\n" +
		"SCHED 5ms: gomaxprocs=x\n" +
		"gc is a word in this line\n" +
		"2026/11/22 08:00:00 gc 3 @0.2s 2%: 0.1+0.2+0.3 ms clock, 0.1+0.2/0.3/0.4+0.5 ms cpu, 4->4->1 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 2 P\n" +
		strings.Repeat("x", maxLine+10) + "\n" +
		"no newline at end"
	s := NewScanner(strings.NewReader(in))
	var kinds []string
	var raw strings.Builder
	for s.Scan() {
		raw.Write(s.Bytes())
		switch r := s.Result().(type) {
		case *SyntaxError:
			kinds = append(kinds, "bad:"+r.Kind)
		case *Text:
			kinds = append(kinds, "text")
		case *GC:
			kinds = append(kinds, "gc")
		default:
			kinds = append(kinds, "other")
		}
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	want := "text bad:gc text bad:SCHED text gc text text text"
	if got := strings.Join(kinds, " "); got != want {
		t.Errorf("records:\ngot  %s\nwant %s", got, want)
	}
	if raw.String() != in {
		t.Errorf("Bytes() did not give the input back verbatim")
	}
	if s.Malformed() != 2 {
		t.Errorf("Malformed() = %d, want 2", s.Malformed())
	}
	if s.Line() != 8 {
		t.Errorf("Line() = %d, want 8", s.Line())
	}
}

func parseOne(t *testing.T, line string) Record {
	t.Helper()
	s := NewScanner(strings.NewReader(line + "\n"))
	if !s.Scan() {
		t.Fatalf("%q: no record", line)
	}
	return s.Result()
}

// TestMendSplitLines feeds trace lines with the program's output written
// into them, as the runtime's many small writes allow (the first case was
// seen in this package's own tests).
func TestMendSplitLines(t *testing.T) {
	const gc1 = "1 @0.023s 8%: 3.8+0.97+0.006 ms clock, 7.7+0/0.93/0+0.013 ms cpu, 0->0->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)\n"
	tests := []struct {
		in   string
		want string // kinds of the records, and the program text
	}{
		{"program line 1\ngc program line 2\n" + gc1, "text:program line 1|text:program line 2|gc:1"},
		{"gc 1 @0.023s 8%: 3.8+hello\n0.97+0.006 ms clock, 7.7+0/0.93/0+0.013 ms cpu, 0->0->0 MB, 4 MB goal, 2 P\n", "text:hello|gc:1"},
		{"SCHED 5ms: gomaxprocs=2 idleprocs=1log line\n threads=4 spinningthreads=0 idlethreads=2 runqueue=0 [0 0]\n", "text:log line|sched"},
		{"gc talk\nmore talk\n", "text:gc talk|text:more talk"},
		{"gc 1 @0.1s 2%: 0.1+garbage\n" + "gc " + gc1, "bad|gc:1"},
		// A process cut in the middle of a trace line, the next one's
		// first line after it (seen in cmd/perflab's TestGC).
		{"gc 57 @0.80s 1%: 0.01+0.5+gc " + gc1, "bad|gc:1"},
		{"gc 57 @0.80s 1%: 0.01+0.5+gc " + gc1 + "gc 2" + gc1[1:], "bad|gc:1|gc:2"},
		{"SCHED 9ms: gomaxprocs=2 idlepSCHED 0ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 [0 0]\n", "bad|sched"},
	}
	for _, tt := range tests {
		s := NewScanner(strings.NewReader(tt.in))
		var got []string
		total := 0
		for s.Scan() {
			total += len(s.Bytes())
			switch r := s.Result().(type) {
			case *Text:
				got = append(got, "text:"+strings.TrimSuffix(string(s.Bytes()), "\n"))
			case *GC:
				got = append(got, "gc:"+strconv.Itoa(r.N))
			case *Sched:
				got = append(got, "sched")
			case *SyntaxError:
				got = append(got, "bad")
			}
		}
		if g := strings.Join(got, "|"); g != tt.want || total != len(tt.in) {
			t.Errorf("%q:\ngot  %s (%d bytes)\nwant %s (%d bytes)", tt.in, g, total, tt.want, len(tt.in))
		}
	}
}

func TestNegativeFieldsAreMalformed(t *testing.T) {
	for _, line := range []string{
		"gc 1 @0.1s -1%: 0.1+0.2+0.3 ms clock, 0.1+0.2/0.3/0.4+0.5 ms cpu, 4->4->1 MB, 5 MB goal, 2 P",
		"gc 1 @0.1s 1%: 0.1+0.2+0.3 ms clock, 0.1+0.2/0.3/0.4+0.5 ms cpu, 4->4->-1 MB, 5 MB goal, 2 P",
		"gc 1 @0.1s 1%: 0.1+0.2+0.3 ms clock, 0.1+0.2/0.3/0.4+0.5 ms cpu, 4->4->1 MB, 5 MB goal, -2 P",
		"SCHED 1ms: gomaxprocs=2 idleprocs=-1 threads=4 spinningthreads=0 idlethreads=2 runqueue=0 [0 0]",
		"SCHED 1ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 idlethreads=2 runqueue=0 [0 -3]",
	} {
		if _, ok := parseOne(t, line).(*SyntaxError); !ok {
			t.Errorf("%q: not reported as malformed", line)
		}
	}
}
