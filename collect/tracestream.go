package collect

import (
	"context"
	"io"
	"net/http"
	"runtime/metrics"
	"runtime/trace"
	"sync"
	"sync/atomic"
	"time"
)

// backlogMetric counts the memory the runtime takes outside the heap for
// its own bookkeeping, execution trace buffers among it: the trace the
// runtime has written but the client has not yet taken.
const backlogMetric = "/memory/classes/other:bytes"

// runTrace records an execution trace into w, which streams it to the
// client, for d or until ctx is done.
//
// The runtime keeps what the client has not yet taken in buffers outside
// the heap, and cannot stop a trace before its reader has taken all they
// hold. So when a slow client lets more than MaxTraceBacklog pile up
// there, the trace stops, and the answer ends cleanly at the end of the
// generation being sent (see genWriter), or of the first if the header
// alone was sent: the reader no longer waits for the client, but keeps
// the rest of that generation on the heap and discards what follows, so
// that the runtime stops at once; the kept rest is sent once it has. The
// client gets a shorter trace of whole generations, which readers read to
// its end. Only if that rest passes twice MaxTraceBacklog, and the
// generation is not the first, is the answer cut off inside it; readers
// then read the generations before.
func (h *handler) runTrace(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	gw := newGenWriter(w, h.opts.maxTraceBacklog())
	gw.until = time.Now().Add(d + lateStop)
	gw.stop = sync.OnceFunc(trace.Stop)
	if err := trace.Start(gw); err != nil {
		return true, err
	}
	sample := newBacklog()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	end := time.NewTimer(d)
	defer end.Stop()
record:
	for !gw.over.Load() {
		select {
		case <-ctx.Done():
			break record
		case <-end.C:
			break record
		case <-tick.C:
			// The reader checks as it writes; this is for a reader that
			// waits for a CPU.
			if sample.read(gw.base) > gw.limit {
				gw.over.Store(true)
			}
		}
	}
	gw.stop() // returns once the reader has taken what the runtime holds
	if traceDone != nil {
		traceDone(gw.keptPeak)
	}
	if gw.cut {
		// The client must see the answer end early, not a whole trace.
		panic(http.ErrAbortHandler)
	}
	for _, b := range gw.kept {
		if _, err := w.Write(b); err != nil {
			break
		}
	}
	return false, nil
}

// lateStop is how long after its seconds a trace that runTrace has not
// stopped yet is ended by its reader: a program that keeps its Ps busy can
// keep the goroutine woken by the timer waiting for seconds, while the
// runtime's trace reader, which the scheduler runs first, goes on.
const lateStop = time.Second

// traceDone, when set (by tests), is told, as each served trace stops,
// the most its genWriter kept on the heap.
var traceDone func(keptPeak int64)

// A backlog reads backlogMetric.
type backlog []metrics.Sample

func newBacklog() backlog { return backlog{{Name: backlogMetric}} }

// read returns how much backlogMetric has grown past base.
func (b backlog) read(base uint64) uint64 {
	metrics.Read(b)
	return max(b[0].Value.Uint64(), base) - base
}

// A genWriter passes the runtime's trace on to the client until over is
// set, by it or by runTrace, when more than limit of trace has piled up
// (or, by it, when the trace was not stopped by until).
// Then it keeps the rest of the generation being sent, for runTrace to
// send once the trace has stopped, and discards what follows. Only the
// runtime's trace reader calls Write.
type genWriter struct {
	w      io.Writer
	limit  uint64
	until  time.Time // set over past this instant
	base   uint64    // backlogMetric when the trace started
	sample backlog
	over   atomic.Bool
	stop   func() // stops the trace, once; nil in tests that stop it themselves

	framer   genFramer
	kept     [][]byte // the rest of the generation being sent when over was set
	keptSize int64
	keptPeak int64
	discard  bool
	cut      bool // the kept rest of a later generation than the first passed twice limit, and was dropped
}

func newGenWriter(w io.Writer, limit uint64) *genWriter {
	g := &genWriter{w: w, limit: limit, sample: newBacklog()}
	g.base = g.sample.read(0)
	return g
}

func (g *genWriter) Write(p []byte) (int, error) {
	n := len(p)
	// Sent a chunk at a time, so that over is seen after one chunk rather
	// than after all of p.
	for len(p) > 0 && !g.discard && !g.isOver() {
		c := p[:min(len(p), chunkSize)]
		p = p[len(c):]
		for rest := c; len(rest) > 0; {
			k, _ := g.framer.next(rest)
			rest = rest[k:]
		}
		if _, err := g.w.Write(c); err != nil {
			g.discard = true // the runtime must go on: what cannot be sent is discarded
		}
	}
	if len(p) > 0 && !g.discard {
		g.keep(p)
	}
	return n, nil
}

// isOver reports whether over is set, setting it first when the backlog
// passes limit or the trace was not stopped by until.
//
// When it sets over, it also stops the trace from a new goroutine: the
// scheduler runs a goroutine started by the running one next on the same
// P, while runTrace, woken by a timer or the network, can wait seconds for
// a CPU in a program that keeps every P busy, and the runtime traces on
// meanwhile, into the rest that g keeps.
func (g *genWriter) isOver() bool {
	if !g.over.Load() && (g.sample.read(g.base) > g.limit || !g.until.IsZero() && time.Now().After(g.until)) {
		if g.over.CompareAndSwap(false, true) && g.stop != nil {
			go g.stop()
		}
	}
	return g.over.Load()
}

// keep keeps p, or the part of it up to the end of the generation being
// sent, and discards the rest. Right after the trace's header, the
// generation being sent is the first: a trace needs one to be read.
func (g *genWriter) keep(p []byte) {
	if g.framer.boundary && g.framer.ended > 0 || g.framer.lost {
		g.discard = true
		g.cut = g.framer.lost
		return
	}
	for len(p) > 0 {
		k, end := g.framer.next(p)
		g.kept = append(g.kept, append([]byte(nil), p[:k]...))
		g.keptSize += int64(k)
		g.keptPeak = max(g.keptPeak, g.keptSize)
		p = p[k:]
		switch {
		case end:
			g.discard = true
			return
		case g.keptSize > 2*int64(g.limit) && g.framer.ended > 0:
			// The first generation is never cut: without it nothing can be
			// read.
			g.cut, g.discard, g.kept = true, true, nil
			return
		}
	}
}
