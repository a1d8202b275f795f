package profiles

import (
	"context"
	"io"
	"os"
)

// A Source is one source opened for streaming, such as an execution trace
// read in one pass: its bytes are read as they come, at most MaxBytes of
// them, and errors name the source.
type Source struct {
	io.Reader
	// Name is the source for messages: the file name, "standard input",
	// or the URL without its password.
	Name  string
	close func() error
	file  *os.File
	max   int64
}

// File returns the source as a file that can be read in parts, and its
// size, when it is a regular file of at most MaxBytes; ok is false for
// standard input, a URL or anything else, to be read as a stream.
func (s *Source) File() (f io.ReaderAt, size int64, ok bool) {
	if s.file == nil {
		return nil, 0, false
	}
	st, err := s.file.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() > s.max {
		return nil, 0, false
	}
	return s.file, st.Size(), true
}

// Close closes the file or the response.
func (s *Source) Close() error { return s.close() }

// Open opens one source (see ReadSource) for streaming instead of reading
// it whole: "-" for standard input, a file, or a URL fetched with
// opts.Seconds, opts.Timeout, opts.Token and opts.Header. Reads fail once
// more than opts.MaxBytes bytes have come.
func Open(ctx context.Context, source string, opts Options) (*Source, error) {
	r, err := openSource(ctx, source, opts)
	if err != nil {
		return nil, opts.redact(err)
	}
	in := &cappedReader{r: r, name: r.name, max: opts.maxBytes()}
	return &Source{Reader: redactingReader{in, opts}, Name: r.name, close: r.close, file: r.file, max: opts.maxBytes()}, nil
}

// redactingReader keeps secrets out of read errors.
type redactingReader struct {
	r    io.Reader
	opts Options
}

func (r redactingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		err = r.opts.redact(err)
	}
	return n, err
}
