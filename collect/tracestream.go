package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
// The first generation is held until it ends and sent whole, or refused
// (errFirstGeneration) if it passes twice MaxTraceBacklog first (see
// genWriter.hold). The runtime keeps what the client has not yet taken in
// buffers outside the heap, and cannot stop a trace before its reader has
// taken all they hold. So when a slow client lets more than
// MaxTraceBacklog pile up there, the trace stops, and the answer ends
// cleanly at the end of the generation being sent: the reader no longer
// waits for the client, but keeps the rest of that generation on the heap
// and discards what follows, so that the runtime stops at once; the kept
// rest is sent once the answer's content is final. The client gets a
// shorter trace of whole generations, which readers read to its end. A
// rest past twice MaxTraceBacklog is sent as it passes, the reader
// waiting for the client (see genWriter.keep), so the answer is never cut
// inside a generation; only a trace whose generations the reader cannot
// follow (a format newer than Go 1.26's) is cut where it stopped.
func (h *handler) runTrace(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	gw := newGenWriter(w, h.opts.maxTraceBacklog())
	gw.until = time.Now().Add(d + lateStop)
	gw.stop = sync.OnceFunc(stopTrace)
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
	// The stop returns once the reader has taken what the runtime holds,
	// which a program that keeps every P busy can delay by minutes. An
	// answer whose content is final (the writer discards what comes, see
	// finish) ends at once, and the trace stops in the background
	// (another trace is refused as busy meanwhile).
	stopped := make(chan struct{})
	go func() { gw.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-gw.done:
	}
	if gw.refused {
		return false, fmt.Errorf("%w: it grew past %d MB first (a program that keeps every P busy delays "+
			"the end of each generation); nothing was sent", errFirstGeneration, 2*gw.limit>>20)
	}
	if traceDone != nil {
		traceDone(gw.held.peak, gw.kept.peak)
	}
	if gw.cut {
		// The client must see the answer end early, not a whole trace.
		panic(http.ErrAbortHandler)
	}
	gw.kept.send(w)
	return false, nil
}

// lateStop is how long after its seconds a trace that runTrace has not
// stopped yet is ended by its reader: a program that keeps its Ps busy can
// keep the goroutine woken by the timer waiting for seconds, while the
// runtime's trace reader, which the scheduler runs first, goes on.
const lateStop = time.Second

// stopTrace stops a served trace; tests delay it, as a program that keeps
// every P busy does.
var stopTrace = trace.Stop

// traceDone, when set (by tests), is told, as each served trace stops,
// the most its genWriter held and kept on the heap.
var traceDone func(held, kept int64)

// A backlog reads backlogMetric.
type backlog []metrics.Sample

func newBacklog() backlog { return backlog{{Name: backlogMetric}} }

// read returns how much backlogMetric has grown past base.
func (b backlog) read(base uint64) uint64 {
	metrics.Read(b)
	return max(b[0].Value.Uint64(), base) - base
}

// errFirstGeneration refuses a trace whose first generation grew past
// twice MaxTraceBacklog before it ended: nothing of it was sent.
var errFirstGeneration = errors.New("its first generation did not end in time")

// A genWriter holds the runtime's trace back until its first generation
// ends (see hold), then passes it on to the client until over is set, by
// it or by runTrace, when more than limit of trace has piled up (or, by
// it, when the trace was not stopped by until). Then it keeps the rest of
// the generation being sent, for runTrace to send once done is closed
// (sending it itself whenever it passes twice limit, see keep), and
// discards what follows. Only the runtime's trace reader calls Write.
type genWriter struct {
	w      io.Writer
	limit  uint64
	until  time.Time // set over past this instant
	base   uint64    // backlogMetric when the trace started
	sample backlog
	over   atomic.Bool
	stop   func() // stops the trace, once; nil in tests that stop it themselves

	framer  genFramer
	held    pile // the trace up to the end of its first generation, while holding
	holding bool
	refused bool          // the first generation passed twice limit before it ended
	kept    pile          // the rest of the generation being sent when over was set
	discard bool          // set by finish
	done    chan struct{} // closed by finish: nothing more is written, kept and cut are final
	cut     bool          // the framer was lost: the answer ends where the trace stopped, not at a generation's end
}

// A pile is trace kept on the heap, in the pieces it came in.
type pile struct {
	bufs [][]byte
	size int64
	peak int64 // the most size has been
}

// add keeps bufs as they are: they are the pile's from now on.
func (s *pile) add(bufs ...[]byte) {
	for _, b := range bufs {
		s.bufs = append(s.bufs, b)
		s.size += int64(len(b))
	}
	s.peak = max(s.peak, s.size)
}

// drop lets the collector have what s holds; its peak stays.
func (s *pile) drop() { s.bufs, s.size = nil, 0 }

// send writes what s holds to w, letting the collector have each piece
// once written, until a write fails, and drops the rest.
func (s *pile) send(w io.Writer) error {
	defer s.drop()
	for i, b := range s.bufs {
		s.bufs[i] = nil
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

func newGenWriter(w io.Writer, limit uint64) *genWriter {
	g := &genWriter{w: w, limit: limit, sample: newBacklog(), holding: true, done: make(chan struct{})}
	g.base = g.sample.read(0)
	return g
}

func (g *genWriter) Write(p []byte) (int, error) {
	n := len(p)
	if g.holding {
		p = g.hold(p)
	}
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
			g.finish() // the runtime must go on: what cannot be sent is discarded
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
	if !g.over.Load() && (g.backlogged() || !g.until.IsZero() && time.Now().After(g.until)) {
		g.setOver()
	}
	return g.over.Load()
}

// backlogged reports whether more than limit of trace waits in the
// runtime's buffers.
func (g *genWriter) backlogged() bool { return g.sample.read(g.base) > g.limit }

// setOver sets over and, if it was not set yet, stops the trace (see
// isOver).
func (g *genWriter) setOver() {
	if g.over.CompareAndSwap(false, true) && g.stop != nil {
		go g.stop()
	}
}

// finish makes g discard all it is given from now on, and tells runTrace
// that the answer's content is final.
func (g *genWriter) finish() {
	if !g.discard {
		g.discard = true
		close(g.done)
	}
}

// hold keeps the trace on the heap until its first generation ends, then
// sends it and returns the part of p past that end, to go on as usual. A
// trace needs one whole generation to be read, so the first is sent whole
// or not at all: if it grows past twice limit before it ends, as when a
// program keeps every P busy and the runtime cannot end it (nor stop the
// trace) for seconds or minutes, nothing is sent, the trace is stopped,
// refused is set, and what follows is discarded. A trace whose header
// does not say where generations end (before Go 1.26) is not held.
func (g *genWriter) hold(p []byte) []byte {
	rest, end := g.fill(&g.held, p)
	switch {
	case end || g.framer.lost:
		g.holding = false
		g.release()
		return rest
	case g.held.size > 2*int64(g.limit):
		g.holding, g.refused = false, true
		g.held.drop()
		g.setOver()
		g.finish()
		return nil
	}
	g.isOver() // stops a trace gone late
	return nil
}

// fill adds p to s, a piece at a time, until the generation being read
// ends, the framer is lost, or s passes twice limit, and returns the rest
// of p and whether the generation ended.
func (g *genWriter) fill(s *pile, p []byte) (rest []byte, end bool) {
	for len(p) > 0 {
		k, end := g.framer.next(p)
		s.add(bytes.Clone(p[:k]))
		p = p[k:]
		if end || g.framer.lost || s.size > 2*int64(g.limit) {
			return p, end
		}
	}
	return nil, false
}

// release sends what hold held. Only a slow client, which lets more than
// limit of trace pile up in the runtime's buffers meanwhile, makes the
// rest wait, kept, for runTrace to send, as the rest of any generation
// would: the trace stops, and the reader goes on taking the runtime's
// buffers. A trace gone late goes on being sent: the reader, which the
// scheduler runs first, sends it whole sooner than anything else could.
func (g *genWriter) release() {
	for i, b := range g.held.bufs {
		if g.backlogged() {
			g.setOver()
			g.kept.add(g.held.bufs[i:]...)
			break
		}
		g.held.bufs[i] = nil // for the collector: a held generation can be large
		if _, err := g.w.Write(b); err != nil {
			g.finish()
			break
		}
	}
	g.held.drop()
}

// keep keeps p, or the part of it up to the end of the generation being
// sent, and discards the rest; the first generation was sent whole (see
// hold). A kept rest that passes twice limit is sent at once, the reader
// waiting for the client, and keeping goes on: the answer is never cut
// inside a generation, and while the client takes it the runtime holds
// what the reader has not read yet (the trace is stopping: that is the
// rest of the generation and what the program traced before the stop
// took effect).
func (g *genWriter) keep(p []byte) {
	if g.framer.boundary || g.framer.lost {
		g.cut = g.framer.lost
		g.finish()
		return
	}
	for len(p) > 0 && !g.discard {
		rest, end := g.fill(&g.kept, p)
		if end {
			g.finish()
			return
		}
		if g.kept.size > 2*int64(g.limit) {
			g.sendKept()
		}
		p = rest
	}
}

// sendKept sends what keep kept, waiting for the client.
func (g *genWriter) sendKept() {
	if g.kept.send(g.w) != nil {
		g.finish()
	}
}
