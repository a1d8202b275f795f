package profiles

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"
)

// CPUProfilePath is the path a bare host:port source refers to, as in
// "go tool pprof localhost:6060".
const CPUProfilePath = "/debug/pprof/profile"

// defaultTimeout bounds a fetch when no duration is known.
const defaultTimeout = 60 * time.Second

// transferGrace is added to 1.5 x the duration of a CPU profile or trace
// for the server to encode it and the network to carry it: go tool pprof
// allows the same 5 s beyond its timeouts.
const transferGrace = 5 * time.Second

// MaxSeconds is the longest duration a fetch may ask for, and MaxTimeout
// the longest bound it may be given: a year. Larger values (7000000000
// seconds, say) overflow a time.Duration once the transfer grace is added.
const (
	MaxSeconds = 365 * 24 * 60 * 60
	MaxTimeout = MaxSeconds * time.Second
)

// ReadSource returns the raw bytes of one source, exactly as stored or
// served, without decompressing them. A source is, in order of preference:
// "-" for standard input; an existing file; a URL such as
// http://host:port/debug/pprof/heap; or a bare host:port, meaning
// CPUProfilePath there. For URLs, opts.Seconds sets ?seconds=N and
// opts.Timeout bounds the whole request (see SourceURL). At most
// opts.MaxBytes bytes are read. A missing file's error wraps
// fs.ErrNotExist, a canceled fetch's context.Canceled.
func ReadSource(ctx context.Context, source string, opts Options) ([]byte, error) {
	data, _, err := readSource(ctx, source, opts)
	return data, err
}

// readSource is ReadSource, also returning the URL the source was fetched
// from: "" for standard input and files.
func readSource(ctx context.Context, source string, opts Options) (data []byte, u string, err error) {
	loc, err := locate(source, opts)
	switch {
	case err != nil:
		return nil, "", err
	case loc.stdin:
		data, err = opts.readStdin(ctx)
		return data, "", err
	case loc.file != nil:
		data, err = readFile(ctx, source, loc.file, opts)
		return data, "", err
	}
	body, err := openURL(ctx, loc, opts)
	if err != nil {
		return nil, "", opts.redact(err)
	}
	defer body.Close()
	data, err = readBudget(body.name, body, body.resp.ContentLength, opts.budget())
	if body.err != nil {
		err = body.err
	}
	return data, loc.url, opts.redact(err)
}

// A location says where a source's bytes come from: standard input, a
// file, or a URL with its duration and timeout.
type location struct {
	stdin   bool
	file    os.FileInfo
	url     string
	timeout time.Duration
	seconds int
}

// locate finds where source is, in ReadSource's order of preference.
func locate(source string, opts Options) (location, error) {
	if err := opts.checkDurations(); err != nil {
		return location{}, err
	}
	if source == "-" {
		return location{stdin: true}, nil
	}
	info, statErr := os.Stat(source)
	if statErr == nil {
		return location{file: info}, nil
	}
	u, timeout, seconds, ok := SourceURL(source, opts.Seconds, opts.Timeout)
	if !ok {
		if errors.Is(statErr, fs.ErrNotExist) {
			return location{}, withCause(source+": no such file, and not a URL", statErr)
		}
		return location{}, fmt.Errorf("%s: %w", source, unwrapPath(statErr))
	}
	return location{url: u, timeout: timeout, seconds: seconds}, nil
}

// checkDurations refuses a duration or timeout out of range.
func (o Options) checkDurations() error {
	if o.Seconds < 0 || o.Seconds > MaxSeconds {
		return fmt.Errorf("seconds %d out of range (0 to %d, a year)", o.Seconds, MaxSeconds)
	}
	if o.Timeout < 0 || o.Timeout > MaxTimeout {
		return fmt.Errorf("timeout %v out of range (0 to %v, a year)", o.Timeout, MaxTimeout)
	}
	return nil
}

// unwrapPath drops the operation and path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SourceURL interprets source as a URL the way "go tool pprof" does. It
// adds http:// to host:port/path, and CPUProfilePath to a URL without a
// path. If seconds > 0 it sets ?seconds=N; otherwise a ?seconds=N already
// in the URL is taken as the duration. The timeout is the one given, else
// 1.5 x the duration plus 5 s to transfer the profile, else 60 s. ok is
// false if source is not a URL.
func SourceURL(source string, seconds int, timeout time.Duration) (u string, t time.Duration, dur int, ok bool) {
	pu, err := url.Parse(source)
	if err != nil || (pu.Host == "" && pu.Scheme != "" && pu.Scheme != "file") {
		// "host:port/path" parses as scheme "host".
		pu, err = url.Parse("http://" + source)
	}
	if err != nil || pu.Host == "" {
		return "", 0, 0, false
	}
	if pu.Path == "" || pu.Path == "/" {
		pu.Path = CPUProfilePath
	}
	q := pu.Query()
	if seconds > 0 {
		q.Set("seconds", strconv.Itoa(seconds))
	} else if s, err := strconv.ParseInt(q.Get("seconds"), 10, 32); err == nil && s > 0 {
		seconds = int(s)
	}
	if timeout <= 0 {
		timeout = defaultTimeout
		if seconds > 0 {
			timeout = time.Duration(min(seconds, MaxSeconds))*1500*time.Millisecond + transferGrace
		}
	}
	pu.RawQuery = q.Encode()
	return pu.String(), timeout, seconds, true
}

// A urlBody is the body of a successful response, read within the
// fetch's timeout. A read error is kept in err, explained by fetchError.
type urlBody struct {
	resp        *http.Response
	name        string // the URL, without a password
	contentType string
	ctx         context.Context
	timeout     time.Duration
	done        func()
	err         error
}

// openURL GETs a profile, showing a countdown on opts.Status until the
// body is closed. Every error names the URL.
func openURL(ctx context.Context, loc location, opts Options) (*urlBody, error) {
	name := redactURL(loc.url)
	ctx, cancel := context.WithTimeoutCause(ctx, loc.timeout, errTimeout)
	client, req, err := newRequest(ctx, http.MethodGet, loc.url, nil, opts)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	stop := startProgress(opts.Progress, name, loc.seconds)
	resp, err := client.Do(req)
	if err != nil {
		err = fetchError(ctx, name, loc.timeout, err)
		stop()
		cancel()
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("%s: server returned %s%s", name, resp.Status, serverMessage(resp.Body))
		resp.Body.Close()
		stop()
		cancel()
		return nil, err
	}
	return &urlBody{resp: resp, name: name, contentType: resp.Header.Get("Content-Type"),
		ctx: ctx, timeout: loc.timeout, done: func() { stop(); cancel() }}, nil
}

func (b *urlBody) Read(p []byte) (int, error) {
	n, err := b.resp.Body.Read(p)
	if err != nil && err != io.EOF {
		if b.err == nil {
			b.err = fetchError(b.ctx, b.name, b.timeout, err)
		}
		return n, b.err
	}
	return n, err
}

// Close closes the body and stops the countdown.
func (b *urlBody) Close() error {
	err := b.resp.Body.Close()
	b.done()
	return err
}

// errTimeout is the cause of a fetch's own deadline, as opposed to the
// caller's.
var errTimeout = errors.New("fetch timed out")

// fetchError explains why a request failed: timeout, cancellation, or the
// network error itself. It wraps context.DeadlineExceeded,
// context.Canceled (or the caller's cause) or the network error.
func fetchError(ctx context.Context, u string, timeout time.Duration, err error) error {
	if cause := context.Cause(ctx); cause == errTimeout {
		return withCause(fmt.Sprintf("%s: timed out after %v (raise it with -timeout)", u, timeout), context.DeadlineExceeded)
	} else if cause != nil {
		return withCause(fmt.Sprintf("%s: %s", u, oneLine(cause.Error())), cause)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return withCause(fmt.Sprintf("%s: %s", u, oneLine(err.Error())), err)
}

// serverMessage returns ": " and the first line of an error response's
// body (net/http/pprof explains its errors there), bounded in size.
func serverMessage(body io.Reader) string {
	sc := bufio.NewScanner(io.LimitReader(body, 4096))
	if !sc.Scan() {
		return ""
	}
	msg := oneLine(sc.Text())
	if msg == "" {
		return ""
	}
	return ": " + msg
}
