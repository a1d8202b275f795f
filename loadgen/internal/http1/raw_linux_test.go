package http1

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pair returns the two ends of a loopback TCP connection, the client's
// wrapped in a rawConn.
func pair(t *testing.T) (*rawConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	nc, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close(); srv.Close() })
	rc, err := newRawConn(nc.(*net.TCPConn))
	if err != nil {
		t.Fatal(err)
	}
	return rc.(*rawConn), srv
}

// TestRawConnLarge sends more than the socket buffers hold both ways, so
// that writes stop part way and reads wait in the poller.
func TestRawConnLarge(t *testing.T) {
	rc, srv := pair(t)
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	echoed := make(chan error, 1)
	go func() {
		got := make([]byte, len(want))
		_, err := io.ReadFull(srv, got)
		if err == nil && !bytes.Equal(got, want) {
			err = errors.New("server got different bytes")
		}
		if err == nil {
			_, err = srv.Write(got)
		}
		echoed <- err
	}()
	if n, err := rc.Write(want); n != len(want) || err != nil {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(want))
	}
	got, err := io.ReadAll(io.LimitReader(rc, int64(len(want))))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read back %d bytes, %v; want the %d written", len(got), err, len(want))
	}
	if err := <-echoed; err != nil {
		t.Fatal(err)
	}
	srv.Close()
	if n, err := rc.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Errorf("Read after the server closed = %d, %v; want 0, EOF", n, err)
	}
}

// TestRawConnErrors checks that a deadline and a reset fail as they do
// on a net.Conn: same error values, messages of the same form.
func TestRawConnErrors(t *testing.T) {
	rc, srv := pair(t)
	rc.nc.SetDeadline(time.Now().Add(20 * time.Millisecond))
	_, err := rc.Read(make([]byte, 10))
	if !errors.Is(err, os.ErrDeadlineExceeded) || !strings.HasPrefix(err.Error(), "read tcp 127.0.0.1:") ||
		!strings.HasSuffix(err.Error(), ": i/o timeout") {
		t.Errorf("Read past the deadline: %v; want read tcp ...: i/o timeout", err)
	}
	rc.nc.SetDeadline(time.Time{})
	srv.(*net.TCPConn).SetLinger(0)
	srv.Close()
	time.Sleep(10 * time.Millisecond)
	_, err = rc.Read(make([]byte, 10))
	if !errors.Is(err, syscall.ECONNRESET) || !strings.HasPrefix(err.Error(), "read tcp 127.0.0.1:") ||
		!strings.HasSuffix(err.Error(), ": read: connection reset by peer") {
		t.Errorf("Read after a reset: %v; want read tcp ...: read: connection reset by peer", err)
	}
}

// TestWriteAndWait checks that WriteAndWait writes everything, returns
// once the answer is there, and ends the wait on a deadline.
func TestWriteAndWait(t *testing.T) {
	rc, srv := pair(t)
	go func() {
		buf := make([]byte, 4)
		if _, err := io.ReadFull(srv, buf); err == nil {
			time.Sleep(20 * time.Millisecond)
			srv.Write(bytes.ToUpper(buf))
		}
	}()
	start := time.Now()
	rc.nc.SetDeadline(start.Add(5 * time.Second)) // a wait that misses the answer fails, not hangs
	n, at, err := rc.WriteAndWait([]byte("ping"))
	if n != 4 || err != nil || at.Before(start) || time.Since(start) < 20*time.Millisecond {
		t.Fatalf("WriteAndWait = %d, %v, %v after %v; want 4, the write's time, nil after the answer", n, at, err, time.Since(start))
	}
	buf := make([]byte, 10)
	if n, err := rc.Read(buf); string(buf[:n]) != "PING" || err != nil {
		t.Fatalf("Read after the wait = %q, %v; want PING", buf[:n], err)
	}
	rc.nc.SetDeadline(time.Now().Add(20 * time.Millisecond))
	n, _, err = rc.WriteAndWait([]byte("ping"))
	if n != 4 || !errors.Is(err, os.ErrDeadlineExceeded) || !strings.HasPrefix(err.Error(), "read tcp ") {
		t.Errorf("WriteAndWait to a silent server = %d, %v; want 4, read tcp ...: i/o timeout", n, err)
	}
}

// TestQuickTurnAfterClose sends requests to a server that closes every
// connection right after its response, without saying so: the next
// request is written and waited for on the closed connection, and must
// be retried on a new one at once, not wait for the deadline.
func TestQuickTurnAfterClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 1024))
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	c := NewConn(&Target{Host: "127.0.0.1", Port: port, Request: []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), Replayable: true})
	defer c.Close()
	for i := range 20 {
		var r Result
		var tm Timing
		start := time.Now()
		err := c.Do(context.Background(), time.Now(), time.Now().Add(5*time.Second), &r, &tm)
		if err != nil || r.Head.Status != 200 || time.Since(start) > time.Second {
			t.Fatalf("request %d: %v, status %d after %v; want 200 at once", i, err, r.Head.Status, time.Since(start))
		}
	}
}
