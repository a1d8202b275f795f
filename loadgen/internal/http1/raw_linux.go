//go:build linux

package http1

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// A rawConn reads and writes a plain TCP connection's non-blocking socket
// with syscall.RawSyscall, waiting in Go's network poller only when the
// socket is not ready, as net.Conn does.
//
// What it saves is the runtime's system-call bookkeeping. syscall.Syscall
// tells the scheduler that the goroutine may block; while a loopback write
// wakes the server, the generator's thread is often preempted inside the
// call, and the scheduler's monitor then hands the goroutine's processor
// to another thread (a futex wake and two context switches) and keeps
// polling every 20 µs. A non-blocking socket call never blocks, so it
// need not be announced. Deadlines, Abort and Close work as for the
// net.Conn, which shares the socket and its poller registration.
type rawConn struct {
	nc      *net.TCPConn
	rc      syscall.RawConn
	buf     []byte // the current call's buffer
	n       int
	errno   syscall.Errno
	readFn  func(fd uintptr) bool // made once: a closure per call would allocate
	writeFn func(fd uintptr) bool
	sendFn  func(fd uintptr) bool
	sending bool      // sendFn's first call: write c.buf
	sentAt  time.Time // when sendFn wrote all of c.buf
}

var _ fastConn = (*rawConn)(nil)

func newRawConn(nc *net.TCPConn) (fastConn, error) {
	rc, err := nc.SyscallConn()
	if err != nil {
		return nil, err
	}
	c := &rawConn{nc: nc, rc: rc}
	c.readFn = func(fd uintptr) bool { return c.call(syscall.SYS_READ, fd) }
	c.writeFn = func(fd uintptr) bool { return c.call(syscall.SYS_WRITE, fd) }
	c.sendFn = c.send
	return c, nil
}

// call makes one read or write of c.buf on fd; it reports false when the
// socket is not ready, so that the poller waits for it.
func (c *rawConn) call(trap, fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&c.buf[0])), uintptr(len(c.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		c.n, c.errno = int(n), e
		return true
	}
}

// Read reads into p, at most once from the socket.
func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.buf, c.n, c.errno = p, 0, 0
	err := c.rc.Read(c.readFn)
	c.buf = nil
	if err == nil && c.errno != 0 {
		err = c.opError("read", c.errno)
	}
	if err != nil {
		return 0, c.renameOp(err, "read")
	}
	if c.n == 0 {
		return 0, io.EOF
	}
	return c.n, nil
}

// Write writes all of p.
func (c *rawConn) Write(p []byte) (int, error) {
	total := 0
	for total < len(p) {
		c.buf, c.n, c.errno = p[total:], 0, 0
		err := c.rc.Write(c.writeFn)
		c.buf = nil
		if err == nil && c.errno != 0 {
			err = c.opError("write", c.errno)
		}
		if err != nil {
			return total, c.renameOp(err, "write")
		}
		total += c.n
	}
	return total, nil
}

// WriteAndWait writes p and waits until the socket is readable, saving
// the read that, right after a write, would find nothing yet (EAGAIN)
// before waiting. It reports how much of p it wrote and when it finished
// writing; if that is short of len(p) (the socket's buffer was full, or
// the write failed), it did not wait and the caller goes on with Write,
// which reports any error. err is the error of waiting (a deadline).
//
// The request is written inside the raw read call, after the poller's
// read readiness was reset: the response can only arrive after that, so
// its readiness is not missed. Readiness that came before (data or an
// end of connection left unread on the socket) is missed: the caller must
// use it only on a connection that was read up to the end of a response
// an instant ago. A server that closed it in between gets the request
// and answers with a reset, which ends the wait.
func (c *rawConn) WriteAndWait(p []byte) (wrote int, at time.Time, err error) {
	c.buf, c.n, c.errno, c.sending = p, 0, 0, true
	err = c.rc.Read(c.sendFn)
	c.buf = nil
	if c.n < len(p) || c.errno != 0 {
		return c.n, time.Time{}, nil
	}
	if err != nil {
		err = c.renameOp(err, "read")
	}
	return c.n, c.sentAt, err
}

// send is WriteAndWait's raw read function: the first call writes, and
// asks to wait if it wrote everything; the next, after the wait, stops.
func (c *rawConn) send(fd uintptr) bool {
	if !c.sending {
		return true
	}
	c.sending = false
	if !c.call(syscall.SYS_WRITE, fd) || c.errno != 0 || c.n < len(c.buf) {
		return true
	}
	c.sentAt = time.Now()
	return false
}

// opError wraps a system call's error as net.Conn would.
func (c *rawConn) opError(op string, e syscall.Errno) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.nc.LocalAddr(), Addr: c.nc.RemoteAddr(),
		Err: os.NewSyscallError(op, e)}
}

// renameOp makes the raw connection's "raw-read" and "raw-write" errors
// read like net.Conn's.
func (c *rawConn) renameOp(err error, op string) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		oe.Op = op
	}
	return err
}
