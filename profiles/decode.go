package profiles

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/internal/term"
)

// Loading is split in three steps so that each can be bounded and replaced
// on its own: readCapped reads the input once, decompress inflates gzip
// within the size limit, and decode turns uncompressed bytes into a profile.

// ErrTooLarge is wrapped by the error returned for a source larger than
// Options.MaxBytes, before or after decompression.
var ErrTooLarge = errors.New("profile too large")

// decompress returns data inflated if it is gzipped, else data itself. The
// inflated bytes are taken from b: a gzip bomb is an error after at most
// b's bytes of inflation, not an out-of-memory kill.
func decompress(data []byte, b *Budget) ([]byte, error) {
	if !pprofproto.IsGzip(data) {
		return data, nil
	}
	out, err := pprofproto.GunzipWithin(data, b)
	switch {
	case errors.Is(err, pprofproto.ErrTooLarge):
		return nil, b.tooLarge("inflates to")
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return nil, fmt.Errorf("truncated gzip data: %w", err)
	case err != nil:
		return nil, fmt.Errorf("corrupt gzip data: %w", err)
	case pprofproto.IsGzip(out):
		return nil, errors.New("gzip data inside gzip data; decompress it once first")
	}
	return out, nil
}

// decode turns uncompressed profile bytes into a valid profile (one that
// passes CheckValid; Load relies on it): profile.proto or one of the legacy
// formats. It is the one place that chooses the decoder; data is never
// gzipped here, so no decoder below can inflate it without the size limit.
// pprofproto.Decode decodes profile.proto about twice as fast as
// profile.ParseData, with a sixth of the allocations, and hands everything
// else (the legacy formats, and input it refuses) to ParseData.
func decode(data []byte) (*profile.Profile, error) {
	return pprofproto.Decode(data)
}

// safeDecode calls decode, turning a panic on hostile input into an error
// and the decoder's errors into one-line causes a person can act on.
func safeDecode(data []byte) (p *profile.Profile, err error) {
	defer recoverAs(&err, "malformed profile (the decoder failed: %s)")
	if len(data) == 0 {
		return nil, errors.New("empty input, not a profile")
	}
	p, err = decode(data)
	if err != nil {
		return nil, explain(data, err)
	}
	if err := checkValues(p); err != nil {
		return nil, fmt.Errorf("malformed profile: %w", err)
	}
	return p, nil
}

// recoverAs, deferred, turns a panic into *err, formatted with format
// from the panic's value on one line. The pprof library is not written
// for hostile input; perflab promises an error, never a crash.
func recoverAs(err *error, format string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf(format, oneLine(fmt.Sprint(r)))
	}
}

// explain rewrites a decoding error. The pprof decoder reports any input it
// cannot read as "unrecognized profile format", even a profile.proto cut
// short; explain says instead what the input looks like and what is wrong.
// pprof's errors are flat strings (it formats its causes with %v), so its
// prefix is cut from the text; the rewording still wraps err.
func explain(data []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "parsing profile: ")
	if msg != "unrecognized profile format" {
		return withCause(oneLine(clarify(msg)), err)
	}
	if looksLikeText(data) {
		return fmt.Errorf("not a profile: unrecognized text format starting %q", firstLine(data, 48))
	}
	if _, perr := profile.ParseUncompressed(data); perr != nil {
		return withCause(fmt.Sprintf("not a profile: not a valid profile.proto (%s) nor a legacy format", oneLine(clarify(perr.Error()))), perr)
	}
	return withCause("not a profile: unrecognized format", err)
}

// withCause returns an error whose message is msg, a rewording of cause's
// (shorter, on one line, or clearer), and which wraps cause, so that
// errors.Is and errors.As still see it.
func withCause(msg string, cause error) error {
	return &reworded{msg, cause}
}

type reworded struct {
	msg   string
	cause error
}

func (e *reworded) Error() string { return e.msg }
func (e *reworded) Unwrap() error { return e.cause }

// clarifications rewords the pprof decoder's terse messages.
var clarifications = strings.NewReplacer(
	"too much data", "truncated or corrupt: a field is longer than the data left",
	"bad varint", "truncated or corrupt: bad varint",
	"sample has nil location", "a sample refers to a location ID that does not exist",
	"location has nil function", "a location refers to a function ID that does not exist",
)

func clarify(msg string) string { return clarifications.Replace(msg) }

// checkValues rejects the values that no profiler writes and that make
// reports meaningless. Negative sample values are legal: subtracting a base
// profile produces them.
func checkValues(p *profile.Profile) error {
	switch {
	case p.Period < 0:
		return fmt.Errorf("negative sampling period %d", p.Period)
	case p.DurationNanos < 0:
		return fmt.Errorf("negative duration %dns", p.DurationNanos)
	case p.TimeNanos < 0:
		return fmt.Errorf("negative time %dns", p.TimeNanos)
	}
	return nil
}

// looksLikeText reports whether data starts like a text file.
func looksLikeText(data []byte) bool {
	head := data[:min(len(data), 64)]
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 && len(head) >= utf8.UTFMax {
			return false
		}
		if r != utf8.RuneError && !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return false
		}
		head = head[n:]
	}
	return true
}

// firstLine returns data's first line, at most n bytes of it.
func firstLine(data []byte, n int) string {
	line, _, _ := bytes.Cut(data[:min(len(data), n)], []byte("\n"))
	return strings.TrimSpace(string(line))
}

// oneLine folds a message onto one line (term.OneLine) of at most 200
// bytes.
func oneLine(s string) string {
	s = term.OneLine(s)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
