package profiles

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"os"
	"regexp"

	"github.com/google/pprof/profile"
	"golang.org/x/exp/trace"
)

// Saved describes what Fetch copied.
type Saved struct {
	// Kind is "profile", "trace", "text" for a source Options.Text
	// accepted, or "data" for a source saved as is.
	Kind  string
	Bytes int64
	// Profile is the profile decoded, for describing it (see
	// report.Summarize): its number of records is not its number of
	// samples.
	Profile *profile.Profile
	Events  int    // of a trace
	What    string // of text: what Options.Text said it is
}

// Fetch copies one source (see ReadSource) as is to w, after checking what
// it is: a profile is read into memory, decoded, then written; an
// execution trace (Go 1.11 or later) is streamed to w while
// golang.org/x/exp/trace reads every event, so that memory stays bounded
// whatever its length; anything else is refused unless raw is set. With
// raw, the source is streamed to w unchecked. At most opts.MaxBytes bytes
// are read. An error from w is returned as is; if w is a file, discard it
// on error, since a refused trace may have been partly written.
func Fetch(ctx context.Context, source string, w io.Writer, raw bool, opts Options) (Saved, error) {
	r, err := openSource(ctx, source, opts)
	if err != nil {
		return Saved{}, opts.redact(err)
	}
	defer r.close()
	s, err := save(r, w, raw, opts)
	return s, opts.redact(err)
}

// A sourceReader reads one source, whatever it is.
type sourceReader struct {
	io.Reader
	name        string // for messages
	contentType string // a URL's, else ""
	isURL       bool
	file        *os.File // a file's, else nil
	close       func() error
}

// openSource opens a source for reading, fetching it if it is a URL.
func openSource(ctx context.Context, source string, opts Options) (*sourceReader, error) {
	loc, err := locate(source, opts)
	switch {
	case err != nil:
		return nil, err
	case loc.stdin:
		if opts.Stdin == nil {
			return nil, errors.New("-: no standard input")
		}
		return &sourceReader{Reader: opts.Stdin, name: "standard input", close: func() error { return nil }}, nil
	case loc.file != nil:
		f, err := os.Open(source)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, unwrapPath(err))
		}
		return &sourceReader{Reader: f, name: source, file: f, close: f.Close}, nil
	}
	body, err := openURL(ctx, loc, opts)
	if err != nil {
		return nil, err
	}
	return &sourceReader{Reader: body, name: body.name, contentType: body.contentType, isURL: true, close: body.Close}, nil
}

// traceHeader matches the first bytes of an execution trace.
var traceHeader = regexp.MustCompile(`^go 1\.[0-9]+ trace\x00\x00\x00`)

// traceHeaderLen is the length of a trace's header.
const traceHeaderLen = 16

// save copies r to w as Fetch describes.
func save(r *sourceReader, w io.Writer, raw bool, opts Options) (Saved, error) {
	in := &cappedReader{r: r, name: r.name, max: opts.maxBytes()}
	out := &countingWriter{w: w}
	if raw {
		_, err := io.Copy(out, in)
		return Saved{Kind: "data", Bytes: out.n}, firstError(out.err, in.err, err)
	}
	br := bufio.NewReaderSize(in, 64<<10)
	if head, _ := br.Peek(traceHeaderLen); traceHeader.Match(head) {
		return saveTrace(r.name, br, in, out)
	}
	opts.Budget = opts.budget() // the bytes as served and inflated, together
	data, err := readBudget(r.name, br, -1, opts.Budget)
	if err != nil {
		return Saved{}, firstError(in.err, err)
	}
	p, err := ParseData(r.name, data, opts)
	if errors.Is(err, ErrTooLarge) {
		return Saved{}, err
	}
	kind, what := "profile", ""
	if err != nil {
		if opts.Text == nil {
			return Saved{}, notProfile(r, err)
		}
		var ok bool
		if what, ok = opts.Text(data); !ok {
			return Saved{}, notProfile(r, err)
		}
		kind, p = "text", nil
	}
	if _, err := out.Write(data); err != nil {
		return Saved{}, err
	}
	return Saved{Kind: kind, Bytes: out.n, Profile: p, What: what}, nil
}

// saveTrace streams an execution trace from br to out while reading its
// events. in is what br reads, whose errors come first.
func saveTrace(name string, br io.Reader, in *cappedReader, out *countingWriter) (Saved, error) {
	tee := io.TeeReader(br, out)
	events := 0
	tr, err := trace.NewReader(tee)
	for err == nil {
		if _, err = tr.ReadEvent(); err == nil {
			events++
		}
	}
	if err == io.EOF {
		// Whatever the reader left unread still belongs in the copy.
		_, err = io.Copy(io.Discard, tee)
	}
	if err = firstError(in.err, out.err, err); err != nil {
		if err == in.err || err == out.err {
			return Saved{}, err
		}
		return Saved{}, withCause(fmt.Sprintf("%s: not a valid execution trace after %d events: %s", name, events, oneLine(err.Error())), err)
	}
	return Saved{Kind: "trace", Bytes: out.n, Events: events}, nil
}

// notProfile explains that a source is neither a profile nor a trace.
func notProfile(r *sourceReader, err error) error {
	what := "the input"
	if r.isURL {
		what = "the response"
	}
	why := err.Error()
	if cause := errors.Unwrap(err); cause != nil { // ParseData's "NAME: cause"
		why = cause.Error()
	}
	if r.contentType != "" {
		ct, _, err := mime.ParseMediaType(r.contentType)
		if err != nil {
			ct = oneLine(r.contentType)
		}
		why = "content-type " + ct + "; " + why
	}
	return withCause(fmt.Sprintf("%s: %s is not a profile or a trace (%s); use -raw to save it as is", r.name, what, why), err)
}

// firstError returns the first non-nil error.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// A cappedReader fails once more than max bytes have been read, and keeps
// the first error of its reader.
type cappedReader struct {
	r    io.Reader
	name string
	max  int64
	n    int64
	err  error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if int64(len(p)) > c.max-c.n+1 {
		p = p[:c.max-c.n+1]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		c.err = fmt.Errorf("%s: %w", c.name, NewBudget(c.max).tooLarge("is"))
		return 0, c.err
	}
	if err != nil && err != io.EOF {
		var named *reworded
		if !errors.As(err, &named) { // a URL's errors name it already
			err = fmt.Errorf("%s: %w", c.name, unwrapPath(err))
		}
		c.err = err
	}
	return n, err
}

// A countingWriter counts what it writes and keeps its first error.
type countingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countingWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
