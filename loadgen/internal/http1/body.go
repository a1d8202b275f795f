package http1

import (
	"bufio"
	"io"
)

// maxChunkLine bounds a chunk-size line, extensions included.
const maxChunkLine = 4096

// bodyFramed reports whether a response to a request with the given
// method and this head has a body at all.
func bodyFramed(head bool, h *Head) bool {
	return !head && h.Status >= 200 && h.Status != 204 && h.Status != 304
}

// DiscardBody reads and drops the body that follows h, returning its size
// in bytes. A body with neither length nor chunking runs to the end of the
// connection, so h.Close is set.
func DiscardBody(br *bufio.Reader, h *Head, headRequest bool) (int64, error) {
	switch {
	case !bodyFramed(headRequest, h):
		return 0, nil
	case h.Chunked:
		return discardChunked(br)
	case h.ContentLength >= 0:
		n, err := br.Discard(int(min(h.ContentLength, int64(^uint(0)>>1))))
		return int64(n), noEOF(err)
	default:
		h.Close = true
		n, err := io.Copy(io.Discard, br)
		return n, err
	}
}

func discardChunked(br *bufio.Reader) (int64, error) {
	var total int64
	for {
		line, err := readLine(br)
		if err != nil {
			return total, noEOF(err)
		}
		size, err := parseChunkSize(line)
		if err != nil {
			return total, err
		}
		if size == 0 {
			return total, discardTrailers(br)
		}
		n, err := br.Discard(int(size))
		total += int64(n)
		if err != nil {
			return total, noEOF(err)
		}
		line, err = readLine(br)
		if err != nil {
			return total, noEOF(err)
		}
		if len(line) != 0 {
			return total, protoErrorf("chunk not followed by CRLF")
		}
	}
}

func discardTrailers(br *bufio.Reader) error {
	total := 0
	for {
		line, err := readLine(br)
		if err != nil {
			return noEOF(err)
		}
		if len(line) == 0 {
			return nil
		}
		if total += len(line); total > maxHeaderBytes {
			return protoErrorf("trailers longer than %d bytes", maxHeaderBytes)
		}
	}
}

// parseChunkSize parses the hex size at the start of a chunk-size line.
func parseChunkSize(line []byte) (int64, error) {
	if len(line) > maxChunkLine {
		return 0, protoErrorf("chunk-size line too long")
	}
	var n int64
	digits := 0
	for _, c := range line {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		case c == ';' || c == ' ' || c == '\t':
			if digits == 0 {
				return 0, protoErrorf("bad chunk size %q", clip(line))
			}
			return n, nil
		default:
			return 0, protoErrorf("bad chunk size %q", clip(line))
		}
		if digits++; digits > 15 {
			return 0, protoErrorf("chunk size too large")
		}
		n = n<<4 | int64(d)
	}
	if digits == 0 {
		return 0, protoErrorf("bad chunk size %q", clip(line))
	}
	return n, nil
}
