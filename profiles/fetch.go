package profiles

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
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

// ReadSource returns the raw bytes of one source, exactly as stored or
// served, without decompressing them. A source is, in order of preference:
// "-" for standard input; an existing file; a URL such as
// http://host:port/debug/pprof/heap; or a bare host:port, meaning
// CPUProfilePath there. For URLs, opts.Seconds sets ?seconds=N and
// opts.Timeout bounds the whole request (see SourceURL). At most
// opts.MaxBytes bytes are read.
func ReadSource(ctx context.Context, source string, opts Options) ([]byte, error) {
	data, _, err := readSource(ctx, source, opts)
	return data, err
}

// readSource is ReadSource, also returning the URL the source was fetched
// from: "" for standard input and files.
func readSource(ctx context.Context, source string, opts Options) (data []byte, u string, err error) {
	if source == "-" {
		data, err = opts.readStdin()
		return data, "", err
	}
	info, statErr := os.Stat(source)
	if statErr == nil {
		data, err = readFile(source, info, opts)
		return data, "", err
	}
	u, timeout, seconds, ok := SourceURL(source, opts.Seconds, opts.Timeout)
	if !ok {
		if errors.Is(statErr, os.ErrNotExist) {
			return nil, "", withCause(source+": no such file, and not a URL", statErr)
		}
		return nil, "", fmt.Errorf("%s: %w", source, unwrapPath(statErr))
	}
	data, err = fetchURL(ctx, u, timeout, seconds, opts)
	return data, u, err
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
			timeout = time.Duration(seconds)*1500*time.Millisecond + transferGrace
		}
	}
	pu.RawQuery = q.Encode()
	return pu.String(), timeout, seconds, true
}

// fetchURL GETs a profile, telling opts.Progress how it goes while the
// server collects it. Every error names the URL.
func fetchURL(ctx context.Context, u string, timeout time.Duration, seconds int, opts Options) ([]byte, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	client := &http.Client{}
	target := u
	if pu, err := url.Parse(u); err == nil && pu.Scheme == "https+insecure" {
		// As in go tool pprof: https without checking the certificate.
		pu.Scheme = "https"
		target = pu.String()
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", u, err)
	}
	stop := startProgress(opts.Progress, u, seconds)
	defer stop()
	resp, err := client.Do(req)
	if err != nil {
		return nil, fetchError(ctx, u, timeout, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: server returned %s%s", u, resp.Status, serverMessage(resp.Body))
	}
	data, err := readBudget(u, resp.Body, resp.ContentLength, opts.budget())
	if err != nil && ctx.Err() != nil {
		return nil, fetchError(ctx, u, timeout, ctx.Err())
	}
	return data, err
}

// errTimeout is the cause of a fetch's own deadline, as opposed to the
// caller's.
var errTimeout = errors.New("fetch timed out")

// fetchError explains why a request failed: timeout, cancellation, or the
// network error itself.
func fetchError(ctx context.Context, u string, timeout time.Duration, err error) error {
	if cause := context.Cause(ctx); cause == errTimeout {
		return fmt.Errorf("%s: timed out after %v (raise it with -timeout)", u, timeout)
	} else if cause != nil {
		return fmt.Errorf("%s: %w", u, cause)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("%s: %s", u, oneLine(err.Error()))
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
