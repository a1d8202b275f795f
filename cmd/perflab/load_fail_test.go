package main

import (
	"encoding/json"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// loadAllFail loads a closed port for a while: refused connections are
// not throughput, and the run exits 1 with one line naming the URL and
// the most common error.
func loadAllFail(t *testing.T, bin string) {
	url := testprog.ClosedPortURL(t)
	out, stderr, code := runPerflab(t, bin, "load", "-z", "300ms", "-c", "2", url)
	want := "perflab: load: every request to " + url + " failed: dial tcp "
	if code != 1 || !strings.HasPrefix(stderr, want) || !strings.HasSuffix(stderr, "connection refused\n") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 1 and one line %q...connection refused", code, stderr, want)
	}
	if !regexp.MustCompile(`  Requests/sec:\t0\.0000\n  Errors/sec:\t[1-9][0-9.]*\n`).MatchString(out) {
		t.Errorf("summary does not count errors apart from responses:\n%s", out)
	}
	out, _, code = runPerflab(t, bin, "load", "-z", "300ms", "-c", "2", "-o", "json", url)
	var doc struct {
		RPS    float64 `json:"rps"`
		EPS    float64 `json:"errors_per_second"`
		Errors int64   `json:"errors"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || doc.RPS != 0 || doc.EPS <= 0 || doc.Errors == 0 {
		t.Errorf("-o json: exit %d, %+v, %v; want exit 1, rps 0, errors apart:\n%s", code, doc, err, out)
	}
}

// silentServer accepts connections on 127.0.0.1 and never answers.
func silentServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String() + "/"
}

// loadHungServer loads a server that accepts and never answers, with no
// request timeout: the run ends at -z plus the grace, reports the
// requests left in flight, and exits 1.
func loadHungServer(t *testing.T, bin string) {
	url := silentServer(t)
	start := time.Now()
	out, stderr, code := runPerflab(t, bin, "load", "-t", "0", "-z", "300ms", "-c", "3", url)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
	want := "perflab: load: no request to " + url + " completed: 3 still in flight at the end, abandoned\n"
	if code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1, %q", code, stderr, want)
	}
	if !strings.Contains(out, "  Unfinished:\t3 requests still in flight at the end, abandoned\n") {
		t.Errorf("report does not show the unfinished requests:\n%s", out)
	}
}

// loadRateUnsent loads, at a fixed rate, a server slower than the rate:
// the requests due that never went out are reported, in text and JSON.
func loadRateUnsent(t *testing.T, bin string) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(200 * time.Millisecond):
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	const rate, dur = 100, 500 * time.Millisecond
	out, stderr, code := runPerflab(t, bin, "load", "-q", "100", "-z", dur.String(), "-c", "1", "-o", "json", srv.URL+"/")
	var doc struct {
		Requests   int64 `json:"requests"`
		Unfinished int64 `json:"unfinished"`
		Unsent     int64 `json:"unsent"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, stderr, out)
	}
	due := int64(math.Ceil(dur.Seconds() * rate))
	if doc.Unsent == 0 || doc.Requests+doc.Unfinished+doc.Unsent != due {
		t.Errorf("%+v; want requests, unfinished and unsent to add up to the %d due, some unsent", doc, due)
	}
}

// loadFailOnErrors loads a server that answers every 5th request with a
// 500: 20% of failures, under a -fail-on-errors of 25%, over one of 10%.
func loadFailOnErrors(t *testing.T, bin string) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1)%5 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	url := srv.URL + "/"
	for _, tt := range []struct {
		share string
		code  int
	}{{"0.25", 0}, {"25%", 0}, {"0.2", 0}, {"10%", 1}, {"0", 1}} {
		_, stderr, code := runPerflab(t, bin, "load", "-n", "100", "-c", "2", "-fail-on-errors", tt.share, url)
		want := "perflab: load: 20% of the 100 requests to " + url + " failed (20 with a 5xx status), more than -fail-on-errors "
		if code != tt.code || code == 1 && !strings.HasPrefix(stderr, want) || code == 0 && stderr != "" {
			t.Errorf("-fail-on-errors %s: exit %d, stderr %q; want %d (%q...)", tt.share, code, stderr, tt.code, want)
		}
	}
}
