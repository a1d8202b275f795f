package godebug

import "strings"

// parseGC parses a gctrace=1 line, which starts with "gc N @".
//
//	gc 7 @0.05s 3% (checking for goroutine leaks): 0.01+0.2+0.03 ms clock,
//	0.02+0.1/0.3/0+0.06 ms cpu, 4->5->2 MB, 5 MB goal, 0 MB stacks,
//	0 MB globals, 2 P (forced)
func parseGC(line string) (*GC, error) {
	c := &cursor{s: line}
	g := new(GC)
	c.lit("gc ")
	g.N = int(c.nat())
	c.lit(" @")
	g.Start = c.seconds()
	c.lit("s ")
	g.CPUPercent = int(c.nat())
	c.lit("%")
	g.LeakCheck = c.opt(" (checking for goroutine leaks)")
	c.lit(": ")
	g.SweepTerm = c.ms()
	c.lit("+")
	g.Mark = c.ms()
	c.lit("+")
	g.MarkTerm = c.ms()
	c.lit(" ms clock, ")
	g.SweepTermCPU = c.ms()
	c.lit("+")
	g.AssistCPU = c.ms()
	c.lit("/")
	g.BackgroundCPU = c.ms()
	c.lit("/")
	g.IdleCPU = c.ms()
	c.lit("+")
	g.MarkTermCPU = c.ms()
	c.lit(" ms cpu, ")
	parseGCHeap(c, g)
	g.Forced = c.opt(" (forced)")
	c.end()
	if c.err != nil {
		return nil, c.err
	}
	return g, nil
}

// parseGCHeap parses "4->5->2 MB, 5 MB goal, [0 MB stacks, 0 MB globals, ]2 P".
func parseGCHeap(c *cursor, g *GC) {
	g.HeapStart = c.mb()
	c.lit("->")
	g.HeapEnd = c.mb()
	c.lit("->")
	g.HeapLive = c.mb()
	c.lit(" MB, ")
	g.HeapGoal = c.mb()
	c.lit(" MB goal, ")
	n := c.nat()
	if c.opt(" MB stacks, ") {
		g.HasScanSizes = true
		g.Stacks = mbBytes(c, n)
		g.Globals = c.mb()
		if !c.opt("MB globals, ") { // the runtime doc writes "#MB globals"
			c.lit(" MB globals, ")
		}
		n = c.nat()
	}
	c.lit(" P")
	g.Procs = int(n)
}

// parseScan parses a gctrace=2 line:
//
//	scan: total 24+27+15=66 objs, 11+2=13 spans
//	scan: class 16B 0+7+0=7 objs, 3+0=3 spans
//	scan: class L 32 objs
func parseScan(line string) (*Scan, error) {
	c := &cursor{s: line}
	s := &Scan{Spans: -1}
	c.lit("scan: ")
	switch {
	case c.opt("total "):
		s.Total = true
	case c.opt("class L "):
	default:
		c.lit("class ")
		s.Class = c.int()
		c.lit("B ")
	}
	s.Objects = c.sum()
	c.lit(" objs")
	if c.opt(", ") {
		s.Spans = c.sum()
		c.lit(" spans")
	}
	c.end()
	if c.err != nil {
		return nil, c.err
	}
	return s, nil
}

// sum consumes "N" or "a+b+...=N" and returns N.
func (c *cursor) sum() int64 {
	n := c.int()
	if c.err != nil || !strings.HasPrefix(c.s, "+") {
		return n
	}
	for c.opt("+") {
		c.int()
	}
	c.lit("=")
	return c.int()
}

// parsePacer parses a gcpacertrace=1 line. It returns a nil Record for
// lines to treat as notes.
func parsePacer(line string) (Record, error) {
	switch {
	case strings.HasPrefix(line, "pacer: assist ratio="):
		return parsePacerStart(line)
	case strings.HasPrefix(line, "pacer: sweep done"):
		return &Note{Kind: "sweep", Text: line}, nil
	}
	return parsePacerEnd(line)
}

// parsePacerStart parses
//
//	pacer: assist ratio=1.07 (scan 2 MB in 3->4 MB) workers=0+0.25
func parsePacerStart(line string) (*PacerStart, error) {
	c := &cursor{s: line}
	p := new(PacerStart)
	c.lit("pacer: assist ratio=")
	p.AssistRatio = c.float()
	c.lit(" (scan ")
	p.HeapScan = c.mb()
	c.lit(" MB in ")
	p.HeapLive = c.mb()
	c.lit("->")
	p.HeapGoal = c.mb()
	c.lit(" MB) workers=")
	p.DedicatedWorkers = int(c.int())
	c.lit("+")
	p.FractionalWorkers = c.float()
	c.end()
	if c.err != nil {
		return nil, c.err
	}
	return p, nil
}

// parsePacerEnd parses
//
//	pacer: 25% CPU (25 exp.) for 1361016+2608+154698 B work (206178 B exp.)
//	in 4001624 B -> 4624216 B (∆goal 429912, cons/mark 0)
func parsePacerEnd(line string) (*PacerEnd, error) {
	c := &cursor{s: line}
	p := new(PacerEnd)
	c.lit("pacer: ")
	p.UtilizationPercent = int(c.int())
	c.lit("% CPU (")
	p.GoalPercent = int(c.int())
	c.lit(" exp.) for ")
	p.ScanWork = append(p.ScanWork, c.int())
	for c.opt("+") && len(p.ScanWork) < 8 {
		p.ScanWork = append(p.ScanWork, c.int())
	}
	c.lit(" B work (")
	p.ExpectedWork = c.int()
	c.lit(" B exp.) in ")
	p.Trigger = c.int()
	c.lit(" B -> ")
	p.Live = c.int()
	c.lit(" B (∆goal ")
	p.DeltaGoal = c.int()
	c.lit(", cons/mark ")
	p.ConsMark = c.float()
	c.lit(")")
	c.end()
	if c.err != nil {
		return nil, c.err
	}
	return p, nil
}
