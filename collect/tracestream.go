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
// taken in buffers outside the heap, and cannot even stop tracing until
// the writer has taken the current generation; so when a slow client lets
// more than MaxTraceBacklog pile up, the answer is cut off (w aborted, the
// rest discarded) and the trace stopped. The answer is never cut before
// its first write has reached the client, so a client always gets the
// status line and the trace's first bytes, not a closed connection.
func (h *handler) runTrace(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	bw := &backlogWriter{w: w, limit: h.opts.maxTraceBacklog(), sample: []metrics.Sample{{Name: backlogMetric}}}
	metrics.Read(bw.sample)
	bw.base = bw.sample[0].Value.Uint64()
	if err := trace.Start(bw); err != nil {
		return true, err
	}
	defer trace.Stop()
	end := time.NewTimer(d)
	defer end.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	check := []metrics.Sample{{Name: backlogMetric}}
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-end.C:
			return false, nil
		case <-tick.C:
			// The writer checks too, but cannot while a write blocks.
			if bw.begun.Load() && bw.over(check) {
				bw.abort()
				return false, nil
			}
		}
	}
}

// A backlogWriter passes a trace to w, aborting w (if it can be) once the
// runtime holds more than limit bytes beyond base and a first write has
// gone through. The runtime's trace reader calls Write, so the check runs
// as often as data flows, however busy the scheduler is.
type backlogWriter struct {
	w           io.Writer
	base, limit uint64
	sample      []metrics.Sample // Write's own
	begun       atomic.Bool      // a write has returned: the answer has begun
}

func (b *backlogWriter) Write(p []byte) (int, error) {
	if b.begun.Load() && b.over(b.sample) {
		b.abort()
	}
	n, err := b.w.Write(p)
	b.begun.Store(true)
	return n, err
}

// over reports whether the backlog exceeds the limit, using sample.
func (b *backlogWriter) over(sample []metrics.Sample) bool {
	metrics.Read(sample)
	now := sample[0].Value.Uint64()
	return now > b.base && now-b.base > b.limit
}

func (b *backlogWriter) abort() {
	if a, ok := b.w.(interface{ abort() }); ok {
		a.abort()
	}
}
