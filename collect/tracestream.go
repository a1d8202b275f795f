package collect

import (
	"context"
	"io"
	"runtime/metrics"
	"runtime/trace"
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
// rest discarded) and the trace stopped.
func (h *handler) runTrace(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	sample := []metrics.Sample{{Name: backlogMetric}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	if err := trace.Start(w); err != nil {
		return true, err
	}
	defer trace.Stop()
	limit := h.opts.maxTraceBacklog()
	end := time.NewTimer(d)
	defer end.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-end.C:
			return false, nil
		case <-tick.C:
			metrics.Read(sample)
			if now := sample[0].Value.Uint64(); now > base && now-base > limit {
				if a, ok := w.(interface{ abort() }); ok {
					a.abort()
				}
				return false, nil
			}
		}
	}
}
