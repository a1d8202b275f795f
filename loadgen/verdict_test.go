package loadgen

import (
	"bytes"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// TestAllFailed loads a closed port: thousands of refused connections a
// second are not throughput, and the run as a whole failed.
func TestAllFailed(t *testing.T) {
	url := testprog.ClosedPortURL(t)
	res := run(t, Config{URL: url, C: 2, Duration: 200 * time.Millisecond})
	if res.Responses != 0 || res.ErrorCount == 0 || res.RPS() != 0 || res.ErrorsPerSecond() <= 0 {
		t.Errorf("%d responses, %d errors, %v req/s, %v errors/s; want 0 responses and 0 req/s, errors apart",
			res.Responses, res.ErrorCount, res.RPS(), res.ErrorsPerSecond())
	}
	err := res.Err()
	if !errors.Is(err, ErrAllFailed) || !strings.HasPrefix(err.Error(), "every request to "+url+" failed: dial tcp ") ||
		!strings.HasSuffix(err.Error(), "connection refused") {
		t.Errorf("Err() = %v; want every request to %s failed: dial tcp ...: connection refused", err, url)
	}
	if res.FailureShare() != 1 {
		t.Errorf("failure share %v, want 1", res.FailureShare())
	}
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), "  Requests/sec:\t0.0000\n  Errors/sec:\t") {
		t.Errorf("summary does not count errors apart:\n%s", b.String())
	}
	j := res.JSON()
	if j.RPS != 0 || j.ErrorsPerSecond != res.ErrorsPerSecond() || j.Errors != res.ErrorCount {
		t.Errorf("JSON rps %v, errors_per_second %v, errors %d", j.RPS, j.ErrorsPerSecond, j.Errors)
	}
}

// TestServerErrorsAndShare: 5xx responses are responses, counted apart
// as server errors and as failures.
func TestServerErrorsAndShare(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%4 == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	res := run(t, Config{URL: srv.URL, N: 40, C: 2})
	want503 := res.StatusCodes[503]
	if res.Responses != 40 || want503 != 10 || res.ServerErrors != want503 || res.Err() != nil {
		t.Errorf("%d responses, codes %v, %d server errors, Err %v; want 40 with 10 503s counted as server errors",
			res.Responses, res.StatusCodes, res.ServerErrors, res.Err())
	}
	if got, want := res.FailureShare(), float64(want503)/40; got != want {
		t.Errorf("failure share %v, want %v", got, want)
	}
}

// TestUnsent loads a server that takes 300 ms per request at 50 req/s
// from 2 workers for 600 ms: the 30 requests due get a few answers, a
// few are left in flight, and the rest never go out. Every one of them is
// counted somewhere.
func TestUnsent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	const rate, dur = 50, 600 * time.Millisecond
	res := run(t, Config{URL: srv.URL, C: 2, Rate: rate, Duration: dur})
	due := int64(math.Ceil(dur.Seconds() * rate))
	if res.Unsent == 0 || res.Responses == 0 || res.Unfinished > 2 ||
		res.Responses+res.ErrorCount+res.Unfinished+res.Unsent != due {
		t.Errorf("%d responses, %d errors, %d unfinished, %d unsent; want them to add up to the %d due, some unsent",
			res.Responses, res.ErrorCount, res.Unfinished, res.Unsent, due)
	}
	var b bytes.Buffer
	res.WriteText(&b)
	if !strings.Contains(b.String(), "  Unsent:\t") || res.JSON().Unsent != res.Unsent {
		t.Errorf("report does not show the unsent requests:\n%s", b.String())
	}
}

// FuzzParseShare checks that an accepted -fail-on-errors value is a share
// from 0 to 1 that prints back to the same share.
func FuzzParseShare(f *testing.F) {
	for _, s := range []string{"0.01", "1%", "0.5%", "100%", "5", "-1%", "NaN", "1e-3", "%", " 2% "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x, err := parseShare(s)
		if err != nil {
			return
		}
		if !(x >= 0 && x <= 1) {
			t.Fatalf("parseShare(%q) = %v, outside [0, 1]", s, x)
		}
		if _, err := parseShare(formatShare(x)); err != nil {
			t.Fatalf("parseShare(%q) = %v, which prints as %q, which does not parse: %v", s, x, formatShare(x), err)
		}
	})
}
