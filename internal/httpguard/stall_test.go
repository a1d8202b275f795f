package httpguard_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/httpguard"
)

// stallAnswer is the size of the answers of the write stall tests: more
// than loopback's socket buffers hold, so that writing it waits for the
// client.
const stallAnswer = 64 << 20

// serveStalling starts a Listen server whose handler sends stallAnswer
// bytes with the write stall d and reports the write's error on the
// returned channel.
func serveStalling(t *testing.T, d time.Duration) (string, <-chan error) {
	t.Helper()
	errs := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !httpguard.SetWriteStall(r.Context(), d) {
			t.Error("SetWriteStall: not a Listen server's connection")
		}
		_, err := w.Write(make([]byte, stallAnswer))
		errs <- err
	})
	s, err := httpguard.Listen("127.0.0.1:0", h, httpguard.Config{})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve()
	t.Cleanup(func() { s.Close() })
	return s.Addr(), errs
}

// TestWriteStallCountsTheClient checks that a write stall counts what the
// client takes, not how long the writer was away: a writer that loses its
// CPU for longer than its stall time, right after setting its deadline (as
// in a program that keeps every P busy), still sends the whole answer to
// a client that reads, where a deadline renewed before each write ended
// it.
func TestWriteStallCountsTheClient(t *testing.T) {
	const stall = 100 * time.Millisecond
	var paused atomic.Int32
	httpguard.SetStallPause(t, func() {
		if paused.Add(1) <= 3 {
			time.Sleep(3 * stall)
		}
	})
	addr, errs := serveStalling(t, stall)
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil || n != stallAnswer {
		t.Errorf("the client got %d bytes (%v), want %d", n, err, stallAnswer)
	}
	if err := <-errs; err != nil {
		t.Errorf("the handler's write: %v", err)
	}
	if paused.Load() < 3 {
		t.Errorf("the writer paused %d times, want at least 3", paused.Load())
	}
}

// TestWriteStallEndsStalledClient checks that a client that stops reading
// still ends the answer, soon after the stall time.
func TestWriteStallEndsStalledClient(t *testing.T) {
	const stall = 100 * time.Millisecond
	addr, errs := serveStalling(t, stall)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil {
		t.Fatal(err)
	}
	// The client reads nothing more.
	select {
	case err := <-errs:
		if err == nil {
			t.Error("the write to a client that stopped reading succeeded")
		}
	case <-time.After(30 * time.Second):
		t.Error("the write to a client that stopped reading still waits after 30 s")
	}
}
