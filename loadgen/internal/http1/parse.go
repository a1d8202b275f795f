package http1

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxHeaderBytes bounds the status line and headers of one response.
const maxHeaderBytes = 1 << 20

// A ProtocolError means the peer sent something that is not a valid
// HTTP/1.x response.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return "malformed HTTP response: " + e.Msg }

func protoErrorf(format string, args ...any) error {
	return &ProtocolError{Msg: fmt.Sprintf(format, args...)}
}

// A Head is what the client needs from a response's status line and
// headers to find the end of its body.
type Head struct {
	Status        int   // status code, 100-999
	ContentLength int64 // -1 if absent
	Chunked       bool  // Transfer-Encoding ends in chunked
	Close         bool  // the server closes the connection after this response
	Location      []byte
	locBuf        [256]byte
}

// ReadHead reads a response's status line and headers from br into h,
// skipping interim 1xx responses other than 101.
func ReadHead(br *bufio.Reader, h *Head) error {
	for {
		if err := readOneHead(br, h); err != nil {
			return err
		}
		if h.Status == 101 {
			h.Close = true // the connection now speaks another protocol
		}
		if h.Status >= 200 || h.Status == 101 {
			return nil
		}
	}
}

func readOneHead(br *bufio.Reader, h *Head) error {
	*h = Head{ContentLength: -1}
	line, err := readLine(br)
	if err != nil {
		return err
	}
	proto10, err := parseStatusLine(line, h)
	if err != nil {
		return err
	}
	h.Close = proto10
	total := len(line)
	for {
		line, err = readLine(br)
		if err != nil {
			return noEOF(err)
		}
		total += len(line)
		if total > maxHeaderBytes {
			return protoErrorf("headers longer than %d bytes", maxHeaderBytes)
		}
		if len(line) == 0 {
			return nil
		}
		if err := parseHeaderLine(line, h, proto10); err != nil {
			return err
		}
	}
}

// readLine returns the next line without its CRLF or LF. The slice is
// valid until the next read from br.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, protoErrorf("header line longer than %d bytes", br.Size())
	}
	if err != nil {
		if err == io.EOF && len(line) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// noEOF turns a clean EOF inside a response into io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseStatusLine parses "HTTP/1.x NNN reason" and reports whether the
// version is 1.0.
func parseStatusLine(line []byte, h *Head) (proto10 bool, err error) {
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return false, protoErrorf("bad status line %q", clip(line))
	}
	switch line[7] {
	case '0':
		proto10 = true
	case '1':
	default:
		return false, protoErrorf("unsupported version in %q", clip(line))
	}
	code := 0
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return false, protoErrorf("bad status code in %q", clip(line))
		}
		code = code*10 + int(c-'0')
	}
	if code < 100 || (len(line) > 12 && line[12] != ' ') {
		return false, protoErrorf("bad status code in %q", clip(line))
	}
	h.Status = code
	return proto10, nil
}

func parseHeaderLine(line []byte, h *Head, proto10 bool) error {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return protoErrorf("bad header line %q", clip(line))
	}
	name := line[:colon]
	for _, c := range name {
		if !tchar[c] {
			return protoErrorf("bad header name in %q", clip(line))
		}
	}
	// Only the framing headers matter; comparing lengths first lets every
	// other header (Date, Content-Type, ...) pass without a comparison.
	value := line[colon+1:]
	switch {
	case len(name) == len("Content-Length") && bytes.EqualFold(name, []byte("Content-Length")):
		n, err := parseContentLength(bytes.TrimSpace(value))
		if err != nil {
			return err
		}
		if h.ContentLength >= 0 && h.ContentLength != n {
			return protoErrorf("conflicting Content-Length headers")
		}
		h.ContentLength = n
	case len(name) == len("Transfer-Encoding") && bytes.EqualFold(name, []byte("Transfer-Encoding")):
		h.Chunked = lastToken(value, "chunked")
	case len(name) == len("Connection") && bytes.EqualFold(name, []byte("Connection")):
		if hasToken(value, "close") {
			h.Close = true
		} else if proto10 && hasToken(value, "keep-alive") {
			h.Close = false
		}
	case len(name) == len("Location") && bytes.EqualFold(name, []byte("Location")):
		h.Location = append(h.locBuf[:0], bytes.TrimSpace(value)...)
	}
	return nil
}

func parseContentLength(v []byte) (int64, error) {
	if len(v) == 0 || len(v) > 18 {
		return 0, protoErrorf("bad Content-Length %q", clip(v))
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, protoErrorf("bad Content-Length %q", clip(v))
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// hasToken reports whether the comma-separated list v holds tok, ignoring case.
func hasToken(v []byte, tok string) bool {
	for len(v) > 0 {
		var item []byte
		item, v, _ = bytes.Cut(v, []byte{','})
		if bytes.EqualFold(bytes.TrimSpace(item), []byte(tok)) {
			return true
		}
	}
	return false
}

// lastToken reports whether the last item of the comma-separated list v is tok.
func lastToken(v []byte, tok string) bool {
	if i := bytes.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return bytes.EqualFold(bytes.TrimSpace(v), []byte(tok))
}

// IsTokenChar reports whether c may appear in an HTTP token (RFC 9110's
// tchar): a method or a header name.
func IsTokenChar(c byte) bool { return tchar[c] }

// tchar holds RFC 9110's tchar: the letters, the digits and
// !#$%&'*+-.^_`|~. A table, as every byte of every header name of every
// response is looked up in it.
var tchar = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", byte(c)) >= 0
	}
	return t
}()

// clip shortens b for an error message.
func clip(b []byte) []byte {
	if len(b) > 40 {
		return b[:40]
	}
	return b
}
