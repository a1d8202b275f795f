package http1

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"syscall"
	"time"
)

// A Target says where requests go and what they are.
type Target struct {
	Host    string      // host name or IP, without port
	Port    string      // port number
	TLS     *tls.Config // nil for plain HTTP
	Request []byte      // the whole request, written as-is for every call
	Head    bool        // the request's method is HEAD: responses have no body
	// Close means the request asks the server to close the connection
	// (keep-alive disabled): each call dials afresh.
	Close bool
	// Replayable means the request may be sent twice (GET, HEAD, OPTIONS,
	// TRACE, as net/http decides): a reused connection closed after the
	// request was written is retried on a new one.
	Replayable bool
}

// Timing is where one call's time went, as net/http/httptrace's hooks
// would split it, and when the call ended.
type Timing struct {
	DNS   time.Duration // resolving the host name (0 for an IP or a reused connection)
	Conn  time.Duration // getting a connection: resolve, dial, TLS handshake
	Write time.Duration // writing the request
	Wait  time.Duration // from the request written to the first response byte
	Read  time.Duration // from the first response byte to the end of the body
	// End is when the response was read to its end, or when the call
	// failed.
	End time.Time
}

// A Result is what one call got back.
type Result struct {
	Head  Head
	Bytes int64 // body bytes
}

// A fastConn is a plain TCP connection read and written with raw system
// calls (raw_linux.go); newRawConn returns errors.ErrUnsupported where
// there is no such fast path, and the Conn then uses the net.Conn as for TLS.
type fastConn interface {
	io.ReadWriter
	// WriteAndWait writes p and waits until the response is readable; see
	// rawConn.WriteAndWait.
	WriteAndWait(p []byte) (wrote int, at time.Time, err error)
}

// A Conn is one client connection, redialed as needed. It is not safe for
// concurrent use: a load worker owns one.
type Conn struct {
	target  *Target
	nc      net.Conn
	rw      io.ReadWriter // nc, or raw for plain TCP
	raw     fastConn      // nil unless plain TCP on an OS with the fast path
	readAt  time.Time     // when the last response was read to its end
	br      *bufio.Reader
	reused  bool
	current atomic.Pointer[net.Conn] // nc, for Abort
	aborted atomic.Bool
}

// NewConn returns a Conn for t. It dials on the first call.
func NewConn(t *Target) *Conn { return &Conn{target: t} }

// Close closes the current connection, if any.
func (c *Conn) Close() error {
	if c.nc == nil {
		return nil
	}
	err := c.nc.Close()
	c.nc, c.raw, c.readAt = nil, nil, time.Time{}
	c.current.Store(nil)
	return err
}

// ErrAborted is returned by calls after Abort.
var ErrAborted = errors.New("aborted")

// Abort makes a call in progress on another goroutine fail at once, and
// every later call fail with ErrAborted. Unlike Close it is safe to call
// concurrently with Do.
func (c *Conn) Abort() {
	c.aborted.Store(true)
	if p := c.current.Load(); p != nil {
		(*p).SetDeadline(time.Unix(1, 0))
	}
}

// Do sends the request and reads the whole response into r and tm. start
// is the clock as the caller read it just before the call, the time it
// counts the request from: the call reads the clock only where it must
// (after a dial, when the request is written, at the first response byte
// and at the end), which is a measurable share of the CPU a request costs.
// A non-zero deadline bounds the call. A reused connection that the server
// had closed while idle is replaced by a new one and the request retried
// once, as net/http does: when writing the request failed, or, for a
// Replayable request, when the connection ended before any response byte.
func (c *Conn) Do(ctx context.Context, start, deadline time.Time, r *Result, tm *Timing) error {
	*tm = Timing{}
	err := c.do(ctx, start, deadline, r, tm)
	if err != nil {
		err = c.retry(ctx, deadline, r, tm, err)
	}
	if err != nil || c.target.Close || r.Head.Close {
		c.Close()
	}
	if err != nil {
		tm.End = time.Now()
	}
	return err
}

// retry retries a call that failed on a reused connection before any
// response byte, and unwraps the error that marks such a failure.
func (c *Conn) retry(ctx context.Context, deadline time.Time, r *Result, tm *Timing, err error) error {
	idle, ok := err.(*idleClosedError)
	if ok && c.reused && (idle.unwritten || c.target.Replayable) {
		c.Close()
		*tm = Timing{}
		err = c.do(ctx, time.Now(), deadline, r, tm)
		idle, ok = err.(*idleClosedError)
	}
	if ok {
		return idle.err
	}
	return err
}

// An idleClosedError is a connection that failed before the first
// response byte: on a reused connection, the server had closed it.
type idleClosedError struct {
	err       error
	unwritten bool // writing the request failed
}

func (e *idleClosedError) Error() string { return e.err.Error() }

func (c *Conn) do(ctx context.Context, start, deadline time.Time, r *Result, tm *Timing) error {
	c.reused = c.nc != nil
	t1 := start
	if c.nc == nil {
		if err := c.dial(ctx, deadline, tm); err != nil {
			return err
		}
		t1 = time.Now()
	}
	tm.Conn = t1.Sub(start)
	if !deadline.IsZero() {
		c.nc.SetDeadline(deadline)
	}
	if c.aborted.Load() {
		return ErrAborted
	}
	t2, err := c.send(t1)
	if err != nil {
		return err
	}
	tm.Write = t2.Sub(t1)
	if _, err := c.br.Peek(1); err != nil {
		return waitError(err)
	}
	t3 := time.Now()
	tm.Wait = t3.Sub(t2)
	if err := ReadHead(c.br, &r.Head); err != nil {
		return err
	}
	n, err := DiscardBody(c.br, &r.Head, c.target.Head)
	r.Bytes = n
	c.readAt = time.Now()
	tm.Read, tm.End = c.readAt.Sub(t3), c.readAt
	return err
}

// quickTurn is how soon after reading a response a request on the same
// connection may skip the read that would find nothing (see send).
const quickTurn = time.Millisecond

// send writes the request and returns when it finished writing. On a
// plain TCP connection whose last response ended less than quickTurn
// before now, with nothing left unread in the buffer, it also waits for
// the response, saving a system call (fastConn.WriteAndWait).
func (c *Conn) send(now time.Time) (time.Time, error) {
	req := c.target.Request
	if c.raw != nil && c.br.Buffered() == 0 && now.Sub(c.readAt) < quickTurn {
		n, at, err := c.raw.WriteAndWait(req)
		if n == len(req) {
			return at, waitError(err)
		}
		req = req[n:]
	}
	if _, err := c.rw.Write(req); err != nil {
		return time.Time{}, &idleClosedError{err: err, unwritten: true}
	}
	return time.Now(), nil
}

// waitError is the error of waiting for a response's first byte: one that
// says the server had closed the connection is an idleClosedError.
func waitError(err error) error {
	if err == io.EOF || errors.Is(err, syscall.ECONNRESET) {
		return &idleClosedError{err: err}
	}
	return err
}

func (c *Conn) dial(ctx context.Context, deadline time.Time, tm *Timing) error {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	host := c.target.Host
	if net.ParseIP(host) == nil {
		t := time.Now()
		addrs, err := net.DefaultResolver.LookupHost(ctx, host)
		tm.DNS = time.Since(t)
		if err != nil {
			return err
		}
		host = addrs[0]
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, c.target.Port))
	if err != nil {
		return err
	}
	if c.target.TLS != nil {
		tc := tls.Client(nc, c.target.TLS)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return &TLSError{Err: err}
		}
		nc = tc
	}
	c.nc, c.rw = nc, nc
	if tc, ok := nc.(*net.TCPConn); ok {
		if rc, err := newRawConn(tc); err == nil {
			c.rw, c.raw = rc, rc
		}
	}
	c.current.Store(&nc)
	if c.br == nil {
		c.br = bufio.NewReaderSize(c.rw, 16<<10)
	} else {
		c.br.Reset(c.rw)
	}
	return nil
}

// A TLSError is a failed TLS handshake.
type TLSError struct{ Err error }

func (e *TLSError) Error() string { return "TLS handshake: " + e.Err.Error() }
func (e *TLSError) Unwrap() error { return e.Err }
