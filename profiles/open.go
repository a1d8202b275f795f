package profiles

import (
	"context"
	"io"
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
	return &Source{Reader: redactingReader{in, opts}, Name: r.name, close: r.close}, nil
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
