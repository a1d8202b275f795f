package loadgen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxBodySize is the largest request body ReadBodyFile reads: 256 MiB.
// The body is held in memory, serialized once into the request and sent
// as-is, so a run holds about twice its size.
const MaxBodySize = 256 << 20

// ErrBodyTooLarge is the cause of ReadBodyFile's error for a file larger
// than MaxBodySize.
var ErrBodyTooLarge = errors.New("request body too large")

// ErrNotRegular is the cause of ReadBodyFile's error for a file that is
// not a regular file: a device such as /dev/zero, a named pipe, a socket
// or a directory, whose size is unknown or that may never end.
var ErrNotRegular = errors.New("not a regular file")

// ReadBodyFile reads a request body from the regular file at path. It
// refuses, with an error naming the file, other kinds of files (without
// opening them: opening a named pipe waits for a writer) and files larger
// than MaxBodySize.
func ReadBodyFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := checkBodyFile(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil { // the file opened may not be the one checked
		return nil, err
	}
	if err := checkBodyFile(path, st); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxBodySize+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if buf.Len() > MaxBodySize { // it grew since Stat
		return nil, tooLarge(path, "it grew to more than that")
	}
	return buf.Bytes(), nil
}

// checkBodyFile refuses a file that is not regular or is too large.
func checkBodyFile(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s): a request body must come from a file of known size", path, ErrNotRegular, fileKind(st.Mode()))
	}
	if st.Size() > MaxBodySize {
		return tooLarge(path, fmt.Sprintf("it has %d bytes", st.Size()))
	}
	return nil
}

func tooLarge(path, why string) error {
	return fmt.Errorf("%s: %w: at most %d MiB, and %s", path, ErrBodyTooLarge, MaxBodySize>>20, why)
}

// fileKind names the kind of a file that is not regular.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "of mode " + m.Type().String()
}
