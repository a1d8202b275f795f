package godebug

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// parseSched parses a schedtrace summary line, in any of its forms:
//
//	SCHED 1004ms: gomaxprocs=8 idleprocs=8 threads=10 spinningthreads=0 idlethreads=3 runqueue=0 [0 0 0 0 0 0 0 0]
//	SCHED 305ms: gomaxprocs=2 idleprocs=1 threads=4 spinningthreads=0 needspinning=0 idlethreads=2 runqueue=0 [ 0 0 ] schedticks=[ 2614 3002 ]
//	SCHED 0ms: gomaxprocs=2 ... runqueue=0 gcwaiting=false nmidlelocked=0 stopwait=0 sysmonwait=false
func parseSched(line string) (*Sched, error) {
	c := &cursor{s: line}
	c.lit("SCHED ")
	ms := c.nat()
	c.lit("ms: ")
	if c.err != nil {
		return nil, c.err
	}
	if ms < 0 || ms > int64(time.Duration(1<<62)/time.Millisecond) {
		c.failf("time %dms out of range", ms)
		return nil, c.err
	}
	s := &Sched{At: time.Duration(ms) * time.Millisecond, NeedSpinning: -1}
	seen := 0
	toks := strings.Fields(c.s)
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		var list []int64
		switch {
		case strings.HasPrefix(tok, "["):
			list, i = parseList(c, toks, i, tok)
			for _, n := range list {
				if n < 0 {
					c.failf("negative run queue length %d", n)
				}
				s.LocalRunQueues = append(s.LocalRunQueues, int(n))
			}
			if s.LocalRunQueues == nil {
				s.LocalRunQueues = []int{}
			}
		case strings.HasPrefix(tok, "schedticks="):
			s.SchedTicks, i = parseList(c, toks, i, strings.TrimPrefix(tok, "schedticks="))
		default:
			k, v, ok := strings.Cut(tok, "=")
			if !ok {
				c.failf("want key=value at %q", clip(tok))
				break
			}
			if setSchedField(c, s, k, v) {
				seen++
			}
		}
		if c.err != nil {
			return nil, c.err
		}
	}
	if seen < 6 {
		c.failf("missing fields: want gomaxprocs, idleprocs, threads, spinningthreads, idlethreads and runqueue")
		return nil, c.err
	}
	return s, nil
}

// setSchedField sets the field named k and reports whether k is one of
// the six fields every version prints.
func setSchedField(c *cursor, s *Sched, k, v string) bool {
	switch k {
	case "gcwaiting", "sysmonwait":
		b := parseBool(c, v)
		if k == "gcwaiting" {
			s.GCWaiting, s.Detailed = b, true
		} else {
			s.SysmonWait = b
		}
		return false
	}
	n := int(atoi(c, k, v))
	// The runtime lowers nmidlelocked before it raises it when it hands
	// a P to a locked thread, so -1 is a real reading (seen at SCHED 0ms
	// while main is locked to its thread during init). The others count
	// things and are never below zero.
	if n < 0 && k != "nmidlelocked" {
		c.failf("%s=%d is negative", k, n)
	}
	switch k {
	case "gomaxprocs":
		s.GOMAXPROCS = n
	case "idleprocs":
		s.IdleProcs = n
	case "threads":
		s.Threads = n
	case "spinningthreads":
		s.SpinningThreads = n
	case "idlethreads":
		s.IdleThreads = n
	case "runqueue":
		s.RunQueue = n
	case "needspinning":
		s.NeedSpinning = n
	case "nmidlelocked":
		s.NMIdleLocked = n
	case "stopwait":
		s.StopWait = n
	default:
		return false
	}
	return k != "needspinning" && k != "nmidlelocked" && k != "stopwait"
}

// parseList reads a bracketed list of integers that starts in toks[i]
// (whose text, less any key, is first): "[1 2]", "[ 1 2 ]" or "[1]".
// It returns the numbers and the index of the list's last token.
func parseList(c *cursor, toks []string, i int, first string) ([]int64, int) {
	if !strings.HasPrefix(first, "[") {
		c.failf("want [ at %q", clip(first))
		return nil, i
	}
	tok := first[1:]
	list := []int64{}
	for {
		last := strings.HasSuffix(tok, "]")
		tok = strings.TrimSuffix(tok, "]")
		if tok != "" {
			list = append(list, atoi(c, "list", tok))
		}
		if last || c.err != nil {
			return list, i
		}
		i++
		if i >= len(toks) {
			c.failf("unterminated [ list")
			return list, i
		}
		tok = toks[i]
	}
}

func atoi(c *cursor, k, v string) int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && c.err == nil {
		c.failf("%s=%q is not an integer", k, clip(v))
	}
	return n
}

// id parses a reference that may be absent: "nil" (or -1 before Go 1.22).
func id(c *cursor, k, v string) int64 {
	if v == "nil" {
		return -1
	}
	return atoi(c, k, v)
}

func parseBool(c *cursor, v string) bool {
	b, err := strconv.ParseBool(v)
	if err != nil && c.err == nil {
		c.failf("%q is not a boolean", clip(v))
	}
	return b
}

// setFields hands each key=value token of s to set, which reports whether
// it knows the key, and fails c unless at least min keys were known.
func setFields(c *cursor, s string, min int, set func(k, v string) bool) {
	known := 0
	for _, tok := range strings.Fields(s) {
		k, v, _ := strings.Cut(tok, "=")
		if set(k, v) {
			known++
		}
	}
	if c.err == nil && known < min {
		c.failf("missing fields")
	}
}

// parseSchedP parses "  P0: status=1 schedtick=1 syscalltick=0 m=0
// runqsize=0 gfreecnt=0 timerslen=0".
func parseSchedP(line string) (*SchedP, error) {
	c := &cursor{s: strings.TrimLeft(line, " ")}
	p := new(SchedP)
	c.lit("P")
	p.ID = int(c.int())
	c.lit(": ")
	setFields(c, c.s, 5, func(k, v string) bool {
		switch k {
		case "status":
			p.Status = int(atoi(c, k, v))
		case "schedtick":
			p.SchedTick = atoi(c, k, v)
		case "syscalltick":
			p.SyscallTick = atoi(c, k, v)
		case "m":
			p.M = id(c, k, v)
		case "runqsize":
			p.RunQueue = int(atoi(c, k, v))
		case "gfreecnt":
			p.GFree = int(atoi(c, k, v))
		case "timerslen":
			p.Timers = int(atoi(c, k, v))
		default:
			return false
		}
		return true
	})
	if c.err != nil {
		return nil, c.err
	}
	return p, nil
}

// parseSchedM parses "  M0: p=0 curg=1 mallocing=0 throwing=0 preemptoff=
// locks=2 dying=0 spinning=false blocked=false lockedg=1".
func parseSchedM(line string) (*SchedM, error) {
	c := &cursor{s: strings.TrimLeft(line, " ")}
	m := new(SchedM)
	c.lit("M")
	m.ID = c.int()
	c.lit(": ")
	rest := c.s
	// preemptoff is free text; it runs up to " locks=".
	if i, j := strings.Index(rest, "preemptoff="), strings.Index(rest, " locks="); i >= 0 && j > i {
		m.PreemptOff = rest[i+len("preemptoff=") : j]
		rest = rest[:i] + rest[j+1:]
	}
	setFields(c, rest, 5, func(k, v string) bool {
		switch k {
		case "p":
			m.P = id(c, k, v)
		case "curg":
			m.CurG = id(c, k, v)
		case "mallocing":
			m.Mallocing = int(atoi(c, k, v))
		case "throwing":
			m.Throwing = int(atoi(c, k, v))
		case "locks":
			m.Locks = int(atoi(c, k, v))
		case "dying":
			m.Dying = int(atoi(c, k, v))
		case "spinning":
			m.Spinning = parseBool(c, v)
		case "blocked":
			m.Blocked = parseBool(c, v)
		case "lockedg":
			m.LockedG = id(c, k, v)
		default:
			return false
		}
		return true
	})
	if c.err != nil {
		return nil, c.err
	}
	return m, nil
}

// parseSchedG parses "  G1: status=4(chan receive) m=nil lockedm=nil".
// The wait reason may itself hold parentheses: "GC worker (idle)".
func parseSchedG(line string) (*SchedG, error) {
	c := &cursor{s: strings.TrimRight(strings.TrimLeft(line, " "), " ")}
	g := new(SchedG)
	c.lit("G")
	g.ID = c.int()
	c.lit(": status=")
	g.Status = int(c.int())
	c.lit("(")
	if c.err != nil {
		return nil, c.err
	}
	i := strings.LastIndex(c.s, ") m=")
	if i < 0 {
		return nil, errors.New(`want ") m=" after the wait reason`)
	}
	g.WaitReason = c.s[:i]
	c.s = c.s[i+len(") m="):]
	m, lm, ok := strings.Cut(c.s, " lockedm=")
	if !ok {
		return nil, errors.New("want lockedm=")
	}
	g.M = id(c, "m", m)
	g.LockedM = id(c, "lockedm", lm)
	if c.err != nil {
		return nil, c.err
	}
	return g, nil
}
