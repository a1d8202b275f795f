package http1

import (
	"bufio"
	"bytes"
	"net/http"
	"strings"
	"testing"
)

func readAll(raw string, head bool) (Head, int64, error) {
	br := bufio.NewReaderSize(strings.NewReader(raw), 4096)
	var h Head
	if err := ReadHead(br, &h); err != nil {
		return h, 0, err
	}
	n, err := DiscardBody(br, &h, head)
	return h, n, err
}

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		head   bool
		status int
		bytes  int64
		close  bool
		bad    bool
	}{
		{name: "length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", status: 200, bytes: 5},
		{name: "chunked", raw: "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n0\r\nT: v\r\n\r\n", status: 201, bytes: 13},
		{name: "bare LF", raw: "HTTP/1.1 404 Not Found\nContent-Length: 2\n\nno", status: 404, bytes: 2},
		{name: "no reason", raw: "HTTP/1.1 204\r\n\r\n", status: 204},
		{name: "head", raw: "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n", head: true, status: 200},
		{name: "close", raw: "HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 0\r\n\r\n", status: 200, close: true},
		{name: "http/1.0", raw: "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", status: 200, bytes: 1, close: true},
		{name: "http/1.0 keep-alive", raw: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx", status: 200, bytes: 1},
		{name: "until EOF", raw: "HTTP/1.1 200 OK\r\n\r\nall of it", status: 200, bytes: 9, close: true},
		{name: "100 continue", raw: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", status: 200},
		{name: "not http", raw: "SSH-2.0-OpenSSH_9.2\r\n", bad: true},
		{name: "bad code", raw: "HTTP/1.1 2x0 OK\r\n\r\n", bad: true},
		{name: "bad length", raw: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", bad: true},
		{name: "conflicting length", raw: "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", bad: true},
		{name: "short body", raw: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", bad: true},
		{name: "cut headers", raw: "HTTP/1.1 200 OK\r\nContent-Le", bad: true},
		{name: "bad chunk", raw: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", bad: true},
		{name: "long line", raw: "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 5000) + "\r\n\r\n", bad: true},
	}
	for _, tt := range tests {
		h, n, err := readAll(tt.raw, tt.head)
		if tt.bad {
			if err == nil {
				t.Errorf("%s: no error, want one", tt.name)
			}
			continue
		}
		if err != nil || h.Status != tt.status || n != tt.bytes || h.Close != tt.close {
			t.Errorf("%s: status %d, %d bytes, close %v, err %v; want %d, %d, %v",
				tt.name, h.Status, n, h.Close, err, tt.status, tt.bytes, tt.close)
		}
	}
}

func TestLocation(t *testing.T) {
	h, _, err := readAll("HTTP/1.1 302 Found\r\nLocation:  /next?a=1 \r\nContent-Length: 0\r\n\r\n", false)
	if err != nil || string(h.Location) != "/next?a=1" {
		t.Fatalf("Location %q, err %v", h.Location, err)
	}
}

// FuzzReadResponse checks that the parser never panics, never reads past
// its input, and agrees with net/http on the status of any response both
// accept.
func FuzzReadResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"))
	f.Add([]byte("HTTP/1.0 302 Found\nLocation: /x\n\n"))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		br := bufio.NewReaderSize(bytes.NewReader(raw), 4096)
		var h Head
		err := ReadHead(br, &h)
		if err != nil {
			return
		}
		if h.Status < 100 || h.Status > 999 {
			t.Fatalf("status %d accepted", h.Status)
		}
		n, err := DiscardBody(br, &h, false)
		if n < 0 || n > int64(len(raw)) {
			t.Fatalf("body of %d bytes from %d bytes of input", n, len(raw))
		}
		if err != nil || h.Status < 200 {
			return
		}
		resp, herr := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
		if herr == nil && resp.StatusCode >= 200 && resp.StatusCode != h.Status {
			t.Fatalf("status %d, net/http says %d", h.Status, resp.StatusCode)
		}
	})
}

// BenchmarkReadResponse parses a hello-world response as net/http's server
// sends it: the CPU the lean client spends per response outside syscalls.
func BenchmarkReadResponse(b *testing.B) {
	raw := []byte("HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 09:00:00 GMT\r\n" +
		"Content-Length: 14\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nHello, World!\n")
	r := bytes.NewReader(raw)
	br := bufio.NewReaderSize(r, 4096)
	var h Head
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(raw)
		br.Reset(r)
		if err := ReadHead(br, &h); err != nil {
			b.Fatal(err)
		}
		if n, err := DiscardBody(br, &h, false); err != nil || n != 14 {
			b.Fatal(n, err)
		}
	}
}
