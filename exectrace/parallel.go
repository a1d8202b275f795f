package exectrace

import (
	"context"
	"io"
	"strconv"
	"sync"

	"golang.org/x/exp/trace"
)

// Analyze reads the execution trace in r, size bytes long, into a new
// Analyzer, with workers goroutines reading a generation each at a time:
// generations are self-contained, so the decoding, the costliest part,
// spreads over the cores while the Analyzer follows. Each generation is
// read into a compact log of the events (genLog), and the Analyzer takes
// the logs in order, with the events as one pass gives them: times made
// to increase across generations, Syncs numbered through, and a
// goroutine's state at a generation's start told as a state it keeps. Its
// summary and profiles are Read's to the byte; memory is Read's plus, for
// each worker and one more, a generation and its log of about twice its
// bytes.
//
// With fewer than ParallelWorkers workers the trace is read with Read in
// one pass instead: Read's reader and Analyzer take a core each already,
// and on two cores the logs cost what reading generations at once saves
// (measured on scripts/bench-trace's trace: 11 s of CPU against 9.7 s,
// and longer). So is a trace Analyze cannot read that way (not a trace,
// too old, broken, truncated, a single generation): Read tells what is
// wrong with it. Finish has not been called on the Analyzer returned.
func Analyze(ctx context.Context, r io.ReaderAt, size int64, workers int) (*Analyzer, Info, error) {
	r = ctxReaderAt{ctx, r}
	if workers >= ParallelWorkers {
		ix, err := ScanIndex(io.NewSectionReader(r, 0, size))
		if err == nil && ix.Generations() > 1 {
			a := NewAnalyzer()
			info, ok := analyzeGenerations(ctx, ix, r, workers, a)
			if ok {
				info.Bytes = size
				return a, info, nil
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, Info{}, err
	}
	a := NewAnalyzer()
	info, err := Read(io.NewSectionReader(r, 0, size), a)
	if err == nil {
		err = ctx.Err() // a read cut short by ctx looks truncated
	}
	return a, info, err
}

// ParallelWorkers is the fewest workers Analyze reads generations with at
// once; with fewer it reads the trace in one pass.
const ParallelWorkers = 3

// analyzeGenerations reads the generations of the trace indexed by ix
// with workers goroutines and gives them to a in order; false if one
// could not be read or the trace has no events, which Read then says.
func analyzeGenerations(ctx context.Context, ix *Index, r io.ReaderAt, workers int, a *Analyzer) (Info, bool) {
	n := ix.Generations()
	g := readLogs(ix, r, workers)
	defer g.stop()
	m := merger{a: a}
	for i := range n {
		var l *genLog
		select {
		case l = <-g.logs[i]:
		case <-ctx.Done():
			return Info{}, false
		}
		<-g.slots
		if l.err != nil {
			return Info{}, false
		}
		m.add(l, i, i == n-1)
	}
	gens := max(0, m.syncs-1)
	if a.events <= int64(gens+1) { // Sync events only
		return Info{}, false
	}
	var v int
	if h := header.FindSubmatch(ix.header); h != nil {
		v, _ = strconv.Atoi(string(h[1]))
	}
	return Info{GoVersion: v, Events: a.events, Generations: gens}, true
}

// logReaders read generations into logs, a few ahead of their taker.
type logReaders struct {
	logs  []chan *genLog // by generation
	slots chan struct{}  // logs read or being read, not yet taken
	done  chan struct{}  // closed to stop
	wg    sync.WaitGroup
}

// readLogs starts workers goroutines reading the generations of the trace
// indexed by ix into logs, in order, at most workers+1 at a time: the
// taker receives generation i's from logs[i], then frees its slot.
func readLogs(ix *Index, r io.ReaderAt, workers int) *logReaders {
	n := ix.Generations()
	g := &logReaders{logs: make([]chan *genLog, n), slots: make(chan struct{}, workers+1), done: make(chan struct{})}
	for i := range g.logs {
		g.logs[i] = make(chan *genLog, 1)
	}
	next := make(chan int)
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer close(next)
		for i := range n {
			select {
			case g.slots <- struct{}{}:
			case <-g.done:
				return
			}
			select {
			case next <- i:
			case <-g.done:
				return
			}
		}
	}()
	for range workers {
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			for i := range next {
				off, end := ix.GenerationBytes(i)
				l := newGenLog(end - off)
				_, l.err = ix.readGenerations(r, i, i+1, false, []Sink{l})
				g.logs[i] <- l
			}
		}()
	}
	return g
}

// stop stops the readers and waits for them.
func (g *logReaders) stop() {
	close(g.done)
	g.wg.Wait()
}

// A merger gives the generations' logs to an Analyzer as one pass over
// the trace gives their events.
type merger struct {
	a     *Analyzer
	last  trace.Time
	syncs int
	e     event
}

// add gives the events of generation i's log; all but the last
// generation's closing Sync, which the next one's opening Sync stands for.
func (m *merger) add(l *genLog, i int, lastGen bool) {
	lr := logReader{l: l}
	e := &m.e
	for k := 0; lr.next(e); k++ {
		if e.kind == trace.EventSync {
			if k == l.events-1 && !lastGen {
				break
			}
			m.syncs++
			e.value = uint64(m.syncs)
		}
		// One pass makes times increase across generations: the first
		// events of one can come before the previous one's last.
		if e.time <= m.last {
			e.time = m.last + 1
		}
		m.last = e.time
		// Read alone, a generation tells each goroutine's state at its
		// start as a change from an unknown state; one pass knows it
		// already and tells it as a change to the same state.
		if i > 0 && e.goTransition && e.from == trace.GoUndetermined {
			e.from = e.to
		}
		m.a.apply(e)
	}
}
