package godebug

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

// Real lines for the seed corpus (more are in testdata/fuzz).
var (
	gcSeeds = []string{
		"gc 1 @0.008s 15%: 4.3+0.30+0.004 ms clock, 8.6+0/1.1/0+0.008 ms cpu, 0->0->0 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P (forced)\n",
		"gc 318 @36.750s 0%: 0.022+0.27+0.040 ms clock, 0.13+0.60/0.43/0.031+0.24 ms cpu, 4->4->0 MB, 5 MB goal, 8 P\n",
		"gc 5 @1.200s 2% (checking for goroutine leaks): 0.010+0.5+0.020 ms clock, 0.020+0/0.4/0+0.040 ms cpu, 5->5->1 MB, 6 MB goal, 0 MB stacks, 0MB globals, 2 P\n",
		"scan: total 24+27+15=66 objs, 11+2=13 spans\nscan: class L 32 objs\n",
		"pacer: assist ratio=1.0742090184354758 (scan 2 MB in 3->4 MB) workers=0+0.25\n" +
			"pacer: 25% CPU (25 exp.) for 1361016+2608+154698 B work (206970 B exp.) in 4001632 B -> 5197664 B (∆goal 1003360, cons/mark 0)\n",
		"GC forced\nscav 0 KiB work (bg), 0 KiB work (eager), 1024 KiB now, 90% util\nprogram output\n",
	}
	schedSeeds = []string{
		"SCHED 10065ms: gomaxprocs=8 idleprocs=8 threads=10 spinningthreads=0 idlethreads=3 runqueue=0 [0 0 0 0 0 0 0 0]\n",
		"SCHED 305ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 [ 0 0 ] schedticks=[ 2614 3002 ]\n",
		"SCHED 0ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 gcwaiting=false nmidlelocked=0 stopwait=0 sysmonwait=false\n" +
			"  P0: status=1 schedtick=1 syscalltick=0 m=0 runqsize=0 gfreecnt=0 timerslen=0\n" +
			"  M0: p=0 curg=1 mallocing=0 throwing=0 preemptoff= locks=2 dying=0 spinning=false blocked=false lockedg=1\n" +
			"  G7: status=4(GC worker (idle)) m=nil lockedm=nil\n",
	}
)

// fuzzScan scans data, checks the invariants every input must keep and
// feeds the records to both analyzers.
func fuzzScan(t *testing.T, data []byte) {
	s := NewScanner(bytes.NewReader(data))
	var back bytes.Buffer
	var gc GCAnalyzer
	var sched SchedAnalyzer
	bad := 0
	for s.Scan() {
		back.Write(s.Bytes())
		rec := s.Result()
		if rec == nil {
			t.Fatalf("line %d: nil record", s.Line())
		}
		if _, ok := rec.(*SyntaxError); ok {
			bad++
		}
		gc.Add(rec)
		sched.Add(rec)
	}
	if s.Err() != nil {
		t.Fatal(s.Err())
	}
	// Mended split lines come back reordered, never lost or changed.
	if !bytes.Equal(sorted(back.Bytes()), sorted(data)) {
		t.Fatalf("Bytes() lost or changed input")
	}
	if bad != s.Malformed() {
		t.Fatalf("Malformed() = %d, saw %d syntax errors", s.Malformed(), bad)
	}
	gs := gc.Summary(0)
	if gs.GCs < 0 || gs.PausesOver100us > gs.GCs || gs.ForcedGCs > gs.GCs {
		t.Fatalf("inconsistent GC summary %+v", gs)
	}
	if len(gs.EarlierProcesses)+gs.EarlierProcessesOmitted != max(gs.Processes-1, 0) || len(gs.EarlierProcesses) > maxProcesses {
		t.Fatalf("%d processes, %d earlier summaries, %d omitted", gs.Processes, len(gs.EarlierProcesses), gs.EarlierProcessesOmitted)
	}
	for _, e := range gs.EarlierProcesses {
		if e.GCs == 0 {
			t.Fatalf("process %d summarised with no GCs", e.Process)
		}
	}
	ss := sched.Summary()
	if ss.Samples < 0 || ss.RunQueue.P99 > ss.RunQueue.Max || ss.LocalRunQueue.P99 > ss.LocalRunQueue.Max {
		t.Fatalf("inconsistent sched summary %+v", ss)
	}
	gs.WriteText(&back)
	ss.WriteText(&back)
}

func FuzzGCTrace(f *testing.F) {
	for _, s := range gcSeeds {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("testdata/gctrace-go126.txt"); err == nil {
		f.Add(b)
	}
	f.Fuzz(fuzzScan)
}

func FuzzSchedTrace(f *testing.F) {
	for _, s := range schedSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Join(schedSeeds, "")))
	f.Fuzz(fuzzScan)
}

func sorted(b []byte) []byte {
	c := append([]byte(nil), b...)
	slices.Sort(c)
	return c
}
