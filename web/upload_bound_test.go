package web_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// rawUpload opens a connection to srv and sends the headers of a base
// upload of length bytes (-1: chunked), and body, which may be shorter.
func rawUpload(t *testing.T, addr string, length int64, body string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	size := fmt.Sprintf("Content-Length: %d", length)
	if length < 0 {
		size = "Transfer-Encoding: chunked"
	}
	fmt.Fprintf(c, "POST /ui/api/base HTTP/1.1\r\nHost: %s\r\n%s\r\nContent-Type: application/octet-stream\r\n\r\n%s", addr, size, body)
	return c
}

// readStatus reads the response on c within wait.
func readStatus(t *testing.T, c net.Conn, wait time.Duration) *http.Response {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(wait))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer within %v: %v", wait, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestUploadBaseBounded checks the limits of base uploads: a declared
// length over -max_bytes gets 413 at once, before the body is read (it
// used to be read whole first); while one upload is being read, another
// gets 429 with Retry-After (concurrent 1.5 GB uploads ran the server out
// of memory); and once the first ends, uploads are served again.
func TestUploadBaseBounded(t *testing.T) {
	const limit = 1 << 20
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), MaxBytes: limit})
	addr := srv.Listener.Addr().String()

	huge := rawUpload(t, addr, 5<<30, "")
	if resp := readStatus(t, huge, 5*time.Second); resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
		t.Errorf("Content-Length of 5 GiB: %s, Connection close %v; want 413 and close", resp.Status, resp.Close)
	}

	// The stalled upload holds the slot once its handler runs; until then
	// another is served, and the stalled one, if its handler runs while
	// the other holds the slot, is refused. So each try begins a new
	// stalled upload and waits longer before sending the other.
	base := encode(t, baseProfile())
	var slow net.Conn
	var resp *http.Response
	for wait, end := 100*time.Millisecond, time.Now().Add(10*time.Second); ; wait *= 2 {
		slow = rawUpload(t, addr, limit/2, "\x1f\x8b") // begins, then stalls
		time.Sleep(wait)
		second := rawUpload(t, addr, int64(len(base)), string(base))
		resp = readStatus(t, second, 5*time.Second)
		second.Close()
		if resp.StatusCode != http.StatusOK || time.Now().After(end) {
			break
		}
		slow.Close()
	}
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Errorf("an upload while another is read: %s (Retry-After %q), want 429 with Retry-After", resp.Status, resp.Header.Get("Retry-After"))
	}
	slow.Close()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		code, body := post(t, srv, "/ui/api/base", "application/octet-stream", base, nil)
		if code == http.StatusOK {
			break
		}
		if code != http.StatusTooManyRequests || time.Now().After(end) {
			t.Fatalf("upload after the stalled one left: %d %s", code, body)
		}
	}
}

// TestUploadBaseMemory uploads a body of three times -max_bytes without a
// Content-Length: it is refused with 413 once the limit is read, and the
// heap grows by no more than the limit and a chunk while it is read
// (io.ReadAll doubling its buffer used to hold about twice the limit).
func TestUploadBaseMemory(t *testing.T) {
	const limit = 64 << 20
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), MaxBytes: limit})
	c := rawUpload(t, srv.Listener.Addr().String(), -1, "")
	runtime.GC()
	before := testprog.HeapAlloc()
	stop := testprog.HeapPeak()
	chunk := []byte(fmt.Sprintf("%x\r\n%s\r\n", 1<<20, strings.Repeat("\xff", 1<<20)))
	go func() { // the client allocates nothing while it sends
		for range 3 * limit >> 20 {
			if _, err := c.Write(chunk); err != nil {
				return // the server answered and closed
			}
		}
		io.WriteString(c, "0\r\n\r\n")
	}()
	resp := readStatus(t, c, 30*time.Second)
	grew := int64(stop()) - int64(before)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body of 3 x -max_bytes: %s, want 413", resp.Status)
	}
	if grew > limit+24<<20 {
		t.Errorf("reading the upload grew the heap by %d MB, want at most the limit (%d MB) and a chunk", grew>>20, limit>>20)
	}
}
