package httpguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// evictAfter is how long a connection must have waited for its client,
// outside a handler, before a new connection may close it to take its
// place: long enough for a client that connected to send its request even
// on a loaded machine (at 0.1 s, one request in a burst of 100 was closed
// once). When half the connections wait for their clients, a tenth of it
// (see waitedLong).
const evictAfter = 250 * time.Millisecond

// connLimiter is a listener that keeps at most max connections open. When
// all are taken, a new connection evicts the one that has waited longest
// for its client outside a handler (idle between requests, silent since
// it connected, or stuck in the middle of its headers), once it has waited
// evictAfter, so clients that open connections and do nothing cannot lock
// others out. A connection is waiting for its client only while the
// server blocks reading from it: one whose request has arrived but whose
// handler has not started yet (on a loaded machine, or while a goroutine
// dump stops the world) is never evicted, nor one inside a handler; while
// none can be, new connections wait in the kernel's queue, so a burst of
// requests is served in turn instead of having its connections reset.
type connLimiter struct {
	net.Listener
	max int

	mu     sync.Mutex
	conns  map[*limitedConn]struct{}
	freed  chan struct{} // a slot may have come free
	closed chan struct{}
	once   sync.Once
}

func newConnLimiter(ln net.Listener, max int) *connLimiter {
	return &connLimiter{
		Listener: ln,
		max:      max,
		conns:    make(map[*limitedConn]struct{}),
		freed:    make(chan struct{}, 1),
		closed:   make(chan struct{}),
	}
}

// A limitedConn is a connection counted by its connLimiter. The fields
// after l are guarded by l.mu.
type limitedConn struct {
	net.Conn
	l       *connLimiter
	busy    int       // handlers and writes running on it
	waiting time.Time // since when a Read waits for the client, zero if none does
	heard   bool      // the client has sent something
	done    time.Time // when the last handler or write ended
	once    sync.Once

	stall   atomic.Int64 // see SetWriteStall: nanoseconds, 0 for none
	writeBy atomic.Int64 // the write deadline the server set, Unix nanoseconds, 0 for none
}

// waitedSince returns since when c has waited for its client with nothing
// else going on, zero if it is not waiting or is busy. l.mu is held.
func (c *limitedConn) waitedSince() time.Time {
	if c.busy > 0 || c.waiting.IsZero() {
		return time.Time{}
	}
	if c.done.After(c.waiting) {
		return c.done
	}
	return c.waiting
}

// Accept accepts a connection and makes room for it.
func (l *connLimiter) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	lc := &limitedConn{Conn: c, l: l}
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			l.conns[lc] = struct{}{}
			l.mu.Unlock()
			return lc, nil
		}
		victims, wait := l.waitedLong()
		l.mu.Unlock()
		if evictOne(victims) {
			continue
		}
		if !l.await(wait) {
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// waitedLong returns the connections outside a handler that have waited
// for their client long enough, longest first, and how long until the
// next one will have. Long enough is evictAfter, or a tenth of it when
// half the connections or more wait for their clients: then the server is
// held by clients that send nothing (a burst of ordinary requests keeps
// its connections in handlers). A client that has sent nothing yet always
// has evictAfter to begin: in a burst of connections, one the server took
// before its client wrote its request can wait for a CPU that long (at a
// tenth, 1 of 100 requests of collect's TestBurstGets429 was closed in 2
// of 3 full test runs on the 2-core test machine). l.mu is held.
func (l *connLimiter) waitedLong() (victims []*limitedConn, next time.Duration) {
	now := time.Now()
	since := map[*limitedConn]time.Time{}
	for c := range l.conns {
		if t := c.waitedSince(); !t.IsZero() {
			since[c] = t
		}
	}
	grace := evictAfter
	if 2*len(since) >= l.max {
		grace = evictAfter / 10
	}
	next = grace
	for c, t := range since {
		g := grace
		if !c.heard {
			g = evictAfter
		}
		if d := t.Add(g).Sub(now); d > 0 {
			next = min(next, d)
			continue
		}
		victims = append(victims, c)
	}
	slices.SortFunc(victims, func(a, b *limitedConn) int { return since[a].Compare(since[b]) })
	return victims, next
}

// evictOne closes the first of victims whose client has not sent anything
// meanwhile (a request that arrived while the server was too busy to read
// it is not the client's fault), and reports whether it closed one.
func evictOne(victims []*limitedConn) bool {
	for _, v := range victims {
		if !pending(v.Conn) {
			v.Close()
			return true
		}
	}
	return false
}

// await waits up to d for a slot to come free, and reports false if the
// listener was closed meanwhile.
func (l *connLimiter) await(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-l.freed:
	case <-t.C:
	case <-l.closed:
		return false
	}
	return true
}

// Close closes the listener and wakes an Accept waiting for room.
func (l *connLimiter) Close() error {
	l.once.Do(func() { close(l.closed) })
	return l.Listener.Close()
}

// Close closes the connection and frees its slot.
func (c *limitedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		delete(c.l.conns, c)
		c.l.mu.Unlock()
		select {
		case c.l.freed <- struct{}{}:
		default:
		}
	})
	return c.Conn.Close()
}

// enter and leave bracket a handler or a write running on the
// connection.
func (c *limitedConn) enter() {
	c.l.mu.Lock()
	c.busy++
	c.l.mu.Unlock()
}

func (c *limitedConn) leave() {
	c.l.mu.Lock()
	c.busy--
	c.done = time.Now()
	c.l.mu.Unlock()
}

// Write writes to the client; the connection is busy meanwhile, so that an
// answer the server is still sending after its handler returned (net/http
// flushes the last of it then) is never cut.
func (c *limitedConn) Write(p []byte) (int, error) {
	c.enter()
	defer c.leave()
	if stall := time.Duration(c.stall.Load()); stall > 0 {
		return c.writeStalling(p, stall)
	}
	return c.Conn.Write(p)
}

// stallBytes is how much of an answer the client must take in each stall
// time (see SetWriteStall).
const stallBytes = 64 << 10

// stallRecheck is how long a write that timed out having sent less than
// stallBytes gets to send something more before it fails.
const stallRecheck = 100 * time.Millisecond

// writeStalling writes p, failing when the client has taken less than
// stallBytes of it (or less than the rest) in stall, or at the write
// deadline the server set. A write's goroutine that a busy program keeps
// waiting for a CPU past its stall time finds, when it runs, a deadline
// gone by: it then tries once more, briefly, and goes on if the client
// took what was waiting meanwhile.
func (c *limitedConn) writeStalling(p []byte, stall time.Duration) (int, error) {
	var by time.Time
	if ns := c.writeBy.Load(); ns != 0 {
		by = time.Unix(0, ns)
	}
	defer c.Conn.SetWriteDeadline(by)
	written, recheck := 0, false
	for {
		wait := stall
		if recheck {
			wait = stallRecheck
		}
		d := time.Now().Add(wait)
		if !by.IsZero() && by.Before(d) {
			d = by
		}
		c.Conn.SetWriteDeadline(d)
		if stallPause != nil && !recheck {
			stallPause()
		}
		rest := p[written:]
		n, err := c.Conn.Write(rest)
		written += n
		switch {
		case err == nil || !errors.Is(err, os.ErrDeadlineExceeded):
			return written, err
		case !by.IsZero() && !time.Now().Before(by):
			return written, err
		case recheck && n == 0:
			return written, err
		}
		recheck = !recheck && n < min(stallBytes, len(rest))
	}
}

// stallPause, when set (by tests), runs between a stalling write setting
// its deadline and writing: a goroutine that lost its CPU there.
var stallPause func()

// SetWriteDeadline sets the connection's write deadline, which a write
// with a stall time (see SetWriteStall) keeps as its last.
func (c *limitedConn) SetWriteDeadline(t time.Time) error {
	c.setWriteBy(t)
	return c.Conn.SetWriteDeadline(t)
}

// SetDeadline sets the connection's read and write deadlines.
func (c *limitedConn) SetDeadline(t time.Time) error {
	c.setWriteBy(t)
	return c.Conn.SetDeadline(t)
}

func (c *limitedConn) setWriteBy(t time.Time) {
	var ns int64
	if !t.IsZero() {
		ns = t.UnixNano()
	}
	c.writeBy.Store(ns)
}

// Read reads from the client, marking the connection as waiting for it
// while the read blocks.
func (c *limitedConn) Read(p []byte) (int, error) {
	c.l.mu.Lock()
	c.waiting = time.Now()
	c.l.mu.Unlock()
	n, err := c.Conn.Read(p)
	c.l.mu.Lock()
	c.waiting = time.Time{}
	c.heard = c.heard || n > 0
	c.l.mu.Unlock()
	return n, err
}

type connKey struct{}

// connContext is the http.Server's ConnContext: it lets handlers find the
// limitedConn they run on.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if lc, ok := c.(*limitedConn); ok {
		return context.WithValue(ctx, connKey{}, lc)
	}
	return ctx
}

// markBusy wraps h so that a connection is never evicted while a handler
// runs on it.
func markBusy(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lc, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
			lc.stall.Store(0)
			lc.enter()
			defer lc.leave()
		}
		h.ServeHTTP(w, r)
	})
}

// SetWriteStall makes the answer to the request with context ctx fail when
// its client takes less than 64 KB of it (or less than the rest) within d
// and then nothing within 0.1 s, and reports whether it could: only on a
// connection of a server that Listen started. Unlike a write deadline
// renewed before each write, the time a busy program keeps the writing
// goroutine waiting for a CPU does not count against the client. The
// connection's write deadline still bounds the whole answer. d applies to
// this request's answer only. Listen's server sets the deadlines of each
// request itself, so a handler that changes the connection's write
// deadline need not clear it for the next request.
func SetWriteStall(ctx context.Context, d time.Duration) bool {
	lc, ok := ctx.Value(connKey{}).(*limitedConn)
	if ok {
		lc.stall.Store(int64(d))
	}
	return ok
}
