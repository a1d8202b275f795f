package collect

import (
	"context"
	"net"
	"sync"
	"time"
)

// connLimiter is a listener that keeps at most max connections open. When
// all are taken, a new connection evicts the one that has waited longest
// outside a handler (idle between requests, or still sending its request
// line and headers), so clients that open connections and do nothing
// cannot lock others out; connections inside a handler are never evicted,
// and when all are inside one, Accept waits for one to close.
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

// A limitedConn is a connection counted by its connLimiter.
type limitedConn struct {
	net.Conn
	l     *connLimiter
	busy  int       // handlers running on it; guarded by l.mu
	since time.Time // when it was accepted or last left a handler; guarded by l.mu
	once  sync.Once
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
			lc.since = time.Now()
			l.conns[lc] = struct{}{}
			l.mu.Unlock()
			return lc, nil
		}
		victim := l.oldestIdle()
		l.mu.Unlock()
		if victim != nil {
			victim.Close()
			continue
		}
		select {
		case <-l.freed:
		case <-l.closed:
			c.Close()
			return nil, net.ErrClosed
		}
	}
}

// oldestIdle returns the connection that has been outside a handler the
// longest, nil if every one is in a handler. l.mu is held.
func (l *connLimiter) oldestIdle() *limitedConn {
	var victim *limitedConn
	for c := range l.conns {
		if c.busy == 0 && (victim == nil || c.since.Before(victim.since)) {
			victim = c
		}
	}
	return victim
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

// enter and leave bracket a handler running on the connection.
func (c *limitedConn) enter() {
	c.l.mu.Lock()
	c.busy++
	c.l.mu.Unlock()
}

func (c *limitedConn) leave() {
	c.l.mu.Lock()
	c.busy--
	c.since = time.Now()
	c.l.mu.Unlock()
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

// markBusy is the handler hook that shields a connection from eviction
// while a handler runs on it.
func markBusy(ctx context.Context) (leave func()) {
	lc, ok := ctx.Value(connKey{}).(*limitedConn)
	if !ok {
		return func() {}
	}
	lc.enter()
	return lc.leave
}
