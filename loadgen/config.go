package loadgen

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/perflab/perflab/loadgen/internal/http1"
)

// DefaultN is the number of requests when neither N nor Duration is set.
const DefaultN = 200

// DefaultC is the number of workers when C is not set.
const DefaultC = 50

// Config describes a load run. Zero values mean hey's defaults.
type Config struct {
	Method string      // GET if empty
	URL    string      // http:// or https://
	Header http.Header // sent with every request
	Body   []byte
	Host   string // overrides the Host header

	N        int           // requests to send; DefaultN if N and Duration are 0
	C        int           // concurrent workers (connections); DefaultC if 0
	Rate     float64       // total requests per second across workers; 0 = as fast as possible
	Duration time.Duration // run for this long instead of N requests
	Timeout  time.Duration // per request; 0 = none

	DisableCompression bool     // do not ask for gzip
	DisableKeepAlive   bool     // a new connection for every request
	DisableRedirects   bool     // report 3xx responses instead of following them
	HTTP2              bool     // use HTTP/2 (through net/http)
	Proxy              *url.URL // send through this HTTP proxy (through net/http)

	// OnSample, if set, is called once for every response (not for
	// errors), one call at a time.
	OnSample func(Sample)
	// OnProgress, if set, is called every ProgressEvery (default 250ms)
	// while the run lasts, from its own goroutine.
	OnProgress    func(Progress)
	ProgressEvery time.Duration

	netHTTP bool // use net/http even where the lean client would do (benchmarks)
}

// A Sample is one request's measurements, as hey's CSV rows report them.
type Sample struct {
	Offset      time.Duration // from the start of the run to the request's send time
	Latency     time.Duration // corrected: from the intended send time when Rate is set
	Uncorrected time.Duration // from the actual send time
	DNSDialup   time.Duration
	DNS         time.Duration
	Write       time.Duration
	Wait        time.Duration
	Read        time.Duration
	Status      int
	Bytes       int64
}

// Progress is a snapshot of a run in progress.
type Progress struct {
	Elapsed  time.Duration
	Sent     int64 // requests completed, errors included
	Errors   int64
	P50, P99 time.Duration // latency so far
}

// target is a validated Config, resolved into what workers need.
type target struct {
	cfg    Config
	url    *url.URL
	method string
	n      int64 // 0 = unbounded (Duration)
	c      int
}

func (cfg Config) resolve() (*target, error) {
	t := &target{cfg: cfg, method: strings.ToUpper(cfg.Method), c: cfg.C}
	if t.method == "" {
		t.method = http.MethodGet
	}
	if !isToken(t.method) {
		return nil, fmt.Errorf("bad method %q", cfg.Method)
	}
	u, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	t.url = u
	if t.c == 0 {
		t.c = DefaultC
	}
	switch {
	case t.c < 0:
		return nil, errors.New("C must be at least 1")
	case cfg.N < 0 || cfg.Rate < 0 || cfg.Duration < 0 || cfg.Timeout < 0:
		return nil, errors.New("N, Rate, Duration and Timeout must not be negative")
	case cfg.Duration == 0 && cfg.N == 0:
		t.n = DefaultN
	case cfg.Duration == 0:
		t.n = int64(cfg.N)
	}
	if t.n > 0 && int64(t.c) > t.n {
		t.c = int(t.n)
	}
	return t, nil
}

// ParseURL parses an http or https URL to load.
func ParseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("bad URL %q: %w", s, errors.Unwrap(err))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("URL %q: scheme must be http or https", s)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("URL %q has no host", s)
	}
	if p := u.Port(); p != "" && !allDigits(p) {
		return nil, fmt.Errorf("URL %q: bad port %q", s, p)
	}
	return u, nil
}

// ParseHeader parses a header given as "Name: value", as hey's -H takes it.
// The name must be an HTTP token and the value non-empty, without control
// characters.
func ParseHeader(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return "", "", &HeaderError{s, `want "Name: value"`}
	}
	if !isToken(name) {
		return "", "", &HeaderError{s, fmt.Sprintf("bad name %q", name)}
	}
	value = strings.Trim(value, " \t")
	if value == "" {
		return "", "", &HeaderError{s, "empty value"}
	}
	for _, c := range []byte(value) {
		if c < ' ' && c != '\t' || c == 0x7f {
			return "", "", &HeaderError{s, "control character in value"}
		}
	}
	return http.CanonicalHeaderKey(name), value, nil
}

// A HeaderError is a malformed "Name: value" header. Its Reason does not
// repeat the header, whose value may be a secret.
type HeaderError struct {
	Header string // as given
	Reason string // what is wrong, e.g. "empty value"
}

// Error returns the header, quoted, and the reason.
func (e *HeaderError) Error() string { return fmt.Sprintf("header %q: %s", e.Header, e.Reason) }

// ValidMethod reports whether m is a well-formed HTTP method: a token.
func ValidMethod(m string) bool { return isToken(m) }

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !http1.IsTokenChar(c) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
