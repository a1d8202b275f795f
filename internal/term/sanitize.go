package term

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// A Sanitizer is a writer that shows control characters as visible
// escapes, so that text taken from its input — function, file and label
// names, benchmark names, server error messages — cannot drive the
// terminal it is printed on: set its title, write to the clipboard, clear
// the screen, or forge report rows with a carriage return.
//
// It escapes C0 controls except '\n' and '\t' ("\r", "\x1b", ...), DEL,
// C1 controls ("\u009b"), Unicode bidirectional overrides and isolates
// (U+202A–U+202E, U+2066–U+2069) and bytes that are not UTF-8 ("\xff").
// Newlines and tabs pass: they are the layout of perflab's own output.
// Backslashes pass unchanged, so an escape cannot be told from the same
// characters in the input; the point is that nothing reaches the terminal
// raw. It keeps the last bytes of a Write that end inside a UTF-8
// sequence until the next Write or Flush. Its methods are safe for
// concurrent use.
type Sanitizer struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the start of a UTF-8 sequence cut by the end of a Write
	buf     []byte
}

// Sanitize returns a Sanitizer writing to w.
func Sanitize(w io.Writer) *Sanitizer { return &Sanitizer{w: w} }

// Write writes p to the underlying writer with its control characters
// escaped. It returns len(p) when the escaped text was written in full.
func (s *Sanitizer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := p
	if len(s.pending) > 0 {
		in = append(s.pending, p...)
		s.pending = nil
	}
	// Keep an incomplete UTF-8 sequence at the end for the next Write.
	if cut := incompleteTail(in); cut < len(in) {
		s.pending = append(s.pending[:0:0], in[cut:]...)
		in = in[:cut]
	}
	if len(in) == 0 {
		return len(p), nil
	}
	s.buf = appendEscaped(s.buf[:0], in)
	if _, err := s.w.Write(s.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the bytes held back from the last Write, escaped as
// invalid UTF-8, since no more input will complete them.
func (s *Sanitizer) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	s.buf = appendEscaped(s.buf[:0], s.pending)
	s.pending = nil
	_, err := s.w.Write(s.buf)
	return err
}

// writeRaw writes p to the underlying writer as it is, for perflab's own
// terminal drawing (the status line's carriage returns).
func (s *Sanitizer) writeRaw(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Write(p)
}

// Escape returns s with its control characters escaped as a Sanitizer
// escapes them; an incomplete UTF-8 sequence at the end is escaped too.
func Escape(s string) string {
	if !needsEscape([]byte(s)) {
		return s
	}
	return string(appendEscaped(nil, []byte(s)))
}

// incompleteTail returns where a UTF-8 sequence that p's end cuts short
// begins, or len(p).
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(p[i]) {
			if p[i] >= utf8.RuneSelf && !utf8.FullRune(p[i:]) {
				return i
			}
			break
		}
	}
	return len(p)
}

// needsEscape reports whether any byte of p may need escaping.
func needsEscape(p []byte) bool {
	for _, c := range p {
		if c >= utf8.RuneSelf || (c < ' ' && c != '\n' && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}

// appendEscaped appends p to dst with its control characters escaped.
func appendEscaped(dst, p []byte) []byte {
	start := 0 // p[start:i] passes unchanged
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c >= ' ' && c != 0x7f) || c == '\n' || c == '\t' {
				i++
				continue
			}
			dst = append(dst, p[start:i]...)
			if c == '\r' {
				dst = append(dst, `\r`...)
			} else {
				dst = fmt.Appendf(dst, `\x%02x`, c)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, p[start:i]...)
			dst = fmt.Appendf(dst, `\x%02x`, c)
		case r <= 0x9f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
			dst = append(dst, p[start:i]...)
			dst = fmt.Appendf(dst, `\u%04x`, r)
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, p[start:]...)
}
