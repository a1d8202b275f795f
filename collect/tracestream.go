package collect

import (
	"context"
	"io"
	"runtime/metrics"
	"runtime/trace"
	"sync/atomic"
	"time"
)

// backlogMetric counts the memory the runtime takes outside the heap for
// its own bookkeeping, execution trace buffers among it: the trace that
// has been written but not yet sent.
const backlogMetric = "/memory/classes/other:bytes"

// runTrace records an execution trace into w, which streams it to the
// client, for d or until ctx is done. The runtime keeps what w has not yet
// taken in buffers outside the heap, and cannot stop tracing before the
// writer has taken what it holds. So when a slow client lets more than
// MaxTraceBacklog pile up, the answer ends with the generation being sent
// (see genWriter): the rest is discarded, so that the runtime can stop at
// once, and the client gets a shorter trace, whole generations only, which
// readers read to its end. Only if twice the backlog piles up before that
// generation is sent (the client is far slower than the program) is the
// answer cut off in the middle of it; readers then read the generations
// before.
func (h *handler) runTrace(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	sample := []metrics.Sample{{Name: backlogMetric}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	backlog := func() uint64 {
		metrics.Read(sample)
		return max(sample[0].Value.Uint64(), base) - base
	}
	gw := &genWriter{w: w}
	if err := trace.Start(gw); err != nil {
		return true, err
	}
	limit := h.opts.maxTraceBacklog()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	end := time.NewTimer(d)
	defer end.Stop()
record:
	for {
		select {
		case <-ctx.Done():
			break record
		case <-end.C:
			break record
		case <-tick.C:
			if backlog() > limit {
				gw.last.Store(true)
				break record
			}
		}
	}
	stopped := make(chan struct{})
	go func() {
		trace.Stop() // returns once the writer has taken what the runtime holds
		close(stopped)
	}()
	for {
		select {
		case <-stopped:
			return false, nil
		case <-tick.C:
			if backlog() > 3*limit {
				abort(w) // the rest is discarded
			}
		}
	}
}

// A genWriter passes a trace on to w until last is set, then until the end
// of the generation being sent, and discards the rest.
type genWriter struct {
	w       io.Writer
	last    atomic.Bool // end the answer with the generation being sent
	framer  genFramer
	discard bool
}

func (g *genWriter) Write(p []byte) (int, error) {
	if g.discard {
		return len(p), nil
	}
	if g.last.Load() && g.framer.boundary {
		g.discard = true
		return len(p), nil
	}
	send := len(p)
	if g.last.Load() {
		for off := 0; off < len(p); {
			n, end := g.framer.next(p[off:])
			off += n
			if end {
				send, g.discard = off, true
				break
			}
		}
	} else {
		g.frame(p)
	}
	if _, err := g.w.Write(p[:send]); err != nil {
		g.discard = true // the runtime must go on: what cannot be sent is discarded
	}
	return len(p), nil
}

// frame follows p's batches, to know where generations end.
func (g *genWriter) frame(p []byte) {
	for len(p) > 0 {
		n, _ := g.framer.next(p)
		p = p[n:]
	}
}

// abort cuts w short, if it can be.
func abort(w io.Writer) {
	if a, ok := w.(interface{ abort() }); ok {
		a.abort()
	}
}
