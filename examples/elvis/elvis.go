package elvis

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Find and Repl are the word the case study looks for and its replacement.
var (
	Find = []byte("elvis")
	Repl = []byte("Elvis")
)

// ReplaceReader copies in to out, replacing every non-overlapping
// occurrence of find with repl, leftmost first. It reads through a
// bufio.Reader and keeps a window of len(find) bytes: when the window
// matches, repl is written and the window refilled; otherwise the window's
// first byte is written and one more byte read. find must not be empty.
func ReplaceReader(in io.Reader, out io.Writer, find, repl []byte) error {
	if len(find) == 0 {
		return errors.New("elvis: empty search word")
	}
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	window := make([]byte, len(find))
	n, err := io.ReadFull(r, window)
	for err == nil {
		if bytes.Equal(window, find) {
			w.Write(repl)
			n, err = io.ReadFull(r, window)
			continue
		}
		w.WriteByte(window[0])
		copy(window, window[1:])
		var b byte
		if b, err = r.ReadByte(); err == nil {
			window[len(window)-1] = b
		} else {
			n = len(window) - 1 // the window's last byte is now stale
		}
	}
	if err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	w.Write(window[:n]) // fewer bytes than find are left: no match possible
	return w.Flush()
}

// ReplaceScan appends data to out with every non-overlapping occurrence of
// find replaced by repl, leftmost first. It finds each match with
// bytes.Index and copies the bytes between matches in one write, so it
// allocates nothing once out has room for the result. find must not be
// empty; if it is, data is copied unchanged.
func ReplaceScan(data, find, repl []byte, out *bytes.Buffer) {
	if len(find) == 0 {
		out.Write(data)
		return
	}
	for {
		i := bytes.Index(data, find)
		if i < 0 {
			out.Write(data)
			return
		}
		out.Write(data[:i])
		out.Write(repl)
		data = data[i+len(find):]
	}
}
