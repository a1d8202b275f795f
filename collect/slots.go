package collect

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/perflab/perflab/internal/httpguard"
)

// slots admit a bounded number of requests of each expensive kind at
// once; the others get 429.
type slots struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// slotWait is how long a request waits for a slot of its kind before it
// gets 429: long enough for a client's next request, sent as soon as the
// last byte of the previous answer arrived, to find the slot free again.
const slotWait = 500 * time.Millisecond

// take claims one of the n slots of kind, waiting up to slotWait, and
// reports false if none came free or ctx ended; release gives it back.
func (s *slots) take(ctx context.Context, kind string, n int) (release func(), ok bool) {
	s.mu.Lock()
	ch := s.m[kind]
	if ch == nil {
		if s.m == nil {
			s.m = make(map[string]chan struct{})
		}
		ch = make(chan struct{}, n)
		s.m[kind] = ch
	}
	s.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	default:
	}
	t := time.NewTimer(slotWait)
	defer t.Stop()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, true
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, false
}

const (
	// writeStall is how long a client may take to accept each chunk of
	// an answer before the server gives up on it.
	writeStall = 10 * time.Second
	// writeGrace is how long an answer may take to send, after any
	// seconds it spends recording.
	writeGrace = 30 * time.Second
	// traceStall is writeStall for a streamed trace: while a write
	// blocks, the runtime keeps tracing into memory, tens of megabytes a
	// second on a busy program, and a goroutine that would stop the trace
	// may wait that long for a CPU. What piles up meanwhile is bounded by
	// MaxTraceBacklog, so this only needs to catch a client that stopped
	// reading, not one a loaded machine left waiting for a CPU a while.
	traceStall = 5 * time.Second
	// chunkSize is how much is written under one deadline.
	chunkSize = 64 << 10
	// drainRate is the slowest a client may take a trace's backlog at
	// (see drainTime).
	drainRate = 1 << 20
)

// drainTime is how long a served trace may take, besides its seconds and
// writeGrace, to send a backlog of backlog bytes: a second a megabyte.
func drainTime(backlog uint64) time.Duration {
	return time.Duration(backlog/drainRate) * time.Second
}

// A stallWriter writes an answer in chunks, each of which the client must
// take within writeStall and all before end, so that a client that stops
// reading frees the server (and whatever the answer holds in memory)
// soon. After the first failure it discards what follows and cancels its
// context, so a recording that streams into it stops early.
//
// Call close when the answer is written: it flushes the rest under the
// same deadlines and, on a server other than Listen's, clears the
// deadline again, so that the connection's next request does not inherit
// it.
type stallWriter struct {
	w      http.ResponseWriter
	rc     *http.ResponseController
	end    time.Time
	cancel context.CancelFunc
	stall  time.Duration
	ours   bool // the connection is a Listen server's: it keeps the stall time, and its next request sets its own deadlines
	stream bool // send each Write at once: a recording streams into it
	n      int64
	err    error
}

// newStallWriter returns a stallWriter for the answer to r. On a Listen
// server the connection keeps the stall time itself
// (httpguard.SetWriteStall), counting only what the client takes, not the
// time a busy program keeps the writer waiting for a CPU; end is then the
// connection's write deadline from the start.
func newStallWriter(w http.ResponseWriter, r *http.Request, end time.Time, stall time.Duration, cancel context.CancelFunc) *stallWriter {
	s := &stallWriter{w: w, rc: http.NewResponseController(w), end: end, cancel: cancel, stall: stall,
		ours: httpguard.SetWriteStall(r.Context(), stall)}
	if s.ours {
		s.rc.SetWriteDeadline(end)
	}
	return s
}

// setDeadline gives the client its stall time, and no more than until end, to
// take the next chunk, unless the connection keeps the stall time itself.
// Not every server supports deadlines; then its own timeouts apply.
func (s *stallWriter) setDeadline() {
	if s.ours {
		return
	}
	d := time.Now().Add(s.stall)
	if d.After(s.end) {
		d = s.end
	}
	s.rc.SetWriteDeadline(d)
}

func (s *stallWriter) close() {
	if s.err == nil {
		s.setDeadline()
		s.rc.Flush()
	}
	if !s.ours {
		s.rc.SetWriteDeadline(time.Time{})
	}
}

func (s *stallWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	written := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), chunkSize)]
		s.setDeadline()
		n, err := s.w.Write(chunk)
		written += n
		s.n += int64(n)
		if err != nil {
			return written, s.fail(err)
		}
		p = p[n:]
	}
	if s.stream {
		s.setDeadline()
		if err := s.rc.Flush(); err != nil {
			return written, s.fail(err)
		}
	}
	return written, nil
}

// fail records the first failed write and ends the recording behind it.
func (s *stallWriter) fail(err error) error {
	s.err = err
	if s.cancel != nil {
		s.cancel()
	}
	return err
}
