package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

func helloServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "Hello, World!\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestLoad runs the perflab binary against loopback servers; its
// subtests share one build.
func TestLoad(t *testing.T) {
	bin := perflab(t)
	for _, tt := range []struct {
		name string
		test func(*testing.T, string)
	}{
		{"LayoutMatchesHey", loadLayoutMatchesHey},
		{"ErrorLayoutMatchesHey", loadErrorLayoutMatchesHey},
		{"CSVMatchesHey", loadCSVMatchesHey},
		{"RateNote", loadRateNote},
		{"JSON", loadJSON},
		{"UsageErrors", loadUsageErrors},
		{"Interrupt", loadInterrupt},
		{"RequestFlags", loadRequestFlags},
		{"AllFail", loadAllFail},
		{"HungServer", loadHungServer},
		{"RateUnsent", loadRateUnsent},
		{"FailOnErrors", loadFailOnErrors},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, bin) })
	}
}

var (
	numberRE = regexp.MustCompile(`[0-9]+(\.[0-9]+)?`)
	barsRE   = regexp.MustCompile(`■+`)
)

// layout reduces a report to its structure: numbers and bars blanked
// (hey's NaN too), error messages dropped, runs of identical lines
// (histogram bars, percentiles) folded into one.
func layout(report string) []string {
	var out []string
	errors := false
	for _, line := range strings.Split(report, "\n") {
		errors = errors || line == "Error distribution:"
		line = strings.ReplaceAll(line, " NaN", "0")
		line = barsRE.ReplaceAllString(numberRE.ReplaceAllString(line, "N"), "")
		if errors && strings.HasPrefix(line, "  [N]\t") {
			line = "  [N]\tERROR"
		}
		if len(out) > 0 && out[len(out)-1] == line {
			continue
		}
		out = append(out, line)
	}
	return out
}

// loadLayoutMatchesHey runs the real hey and perflab load against the
// same loopback server and compares the structure of their reports.
func loadLayoutMatchesHey(t *testing.T, bin string) {
	ours := sameLayoutAsHey(t, bin, helloServer(t).URL+"/", 0)
	if strings.Contains(ours, " 0.0000 secs") {
		t.Errorf("a latency printed as 0.0000:\n%s", ours)
	}
	if !strings.Contains(ours, "  99.99% in ") || !strings.Contains(ours, "  [200]\t200 responses") {
		t.Errorf("no 99.99th percentile or wrong status count:\n%s", ours)
	}
}

// loadErrorLayoutMatchesHey compares the reports of a run where every
// request fails: connection refused. Ours adds an Errors/sec line and
// exits 1.
func loadErrorLayoutMatchesHey(t *testing.T, bin string) {
	ours := sameLayoutAsHey(t, bin, testprog.ClosedPortURL(t), 1)
	if !strings.Contains(ours, "  [200]\tconnection refused (e.g. dial tcp ") {
		t.Errorf("no count of refused connections:\n%s", ours)
	}
}

// oursOnlyRE matches the Summary lines perflab adds to hey's layout when
// requests failed, were left in flight or never went out.
var oursOnlyRE = regexp.MustCompile(`(?m)^  (Errors/sec|Unfinished|Unsent):\t.*\n`)

// sameLayoutAsHey runs hey and perflab load with -n 200 -c 4 against url
// and fails unless perflab exits with wantCode and their reports have the
// same layout, but for the lines oursOnlyRE matches.
func sameLayoutAsHey(t *testing.T, bin, url string, wantCode int) string {
	hey := testprog.Oracle(t, "hey")
	heyOut, err := exec.Command(hey, "-n", "200", "-c", "4", url).Output()
	if err != nil {
		t.Fatalf("hey: %v", err)
	}
	ours, stderr, code := runPerflab(t, bin, "load", "-n", "200", "-c", "4", url)
	if code != wantCode {
		t.Fatalf("perflab load exited %d, want %d: %s", code, wantCode, stderr)
	}
	want, got := layout(string(heyOut)), layout(oursOnlyRE.ReplaceAllString(ours, ""))
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		t.Errorf("layout differs from hey's\nhey:\n%s\nperflab:\n%s", heyOut, ours)
	}
	return ours
}

func loadCSVMatchesHey(t *testing.T, bin string) {
	hey := testprog.Oracle(t, "hey")
	url := helloServer(t).URL + "/"
	heyOut, err := exec.Command(hey, "-n", "20", "-c", "2", "-o", "csv", url).Output()
	if err != nil {
		t.Fatalf("hey: %v", err)
	}
	ours, stderr, code := runPerflab(t, bin, "load", "-n", "20", "-c", "2", "-o", "csv", url)
	if code != 0 {
		t.Fatalf("perflab load exited %d: %s", code, stderr)
	}
	heyLines := strings.Split(strings.TrimSpace(string(heyOut)), "\n")
	lines := strings.Split(strings.TrimSpace(ours), "\n")
	if lines[0] != heyLines[0] || len(lines) != len(heyLines) {
		t.Fatalf("header %q and %d lines; hey: %q and %d lines", lines[0], len(lines), heyLines[0], len(heyLines))
	}
	row := regexp.MustCompile(`^([0-9]+\.[0-9]+,){6}200,[0-9]+\.[0-9]+$`)
	for _, l := range lines[1:] {
		if !row.MatchString(l) {
			t.Errorf("bad row %q", l)
		}
	}
}

func loadJSON(t *testing.T, bin string) {
	url := helloServer(t).URL + "/"
	out, stderr, code := runPerflab(t, bin, "load", "-n", "50", "-c", "2", "-q", "500", "-o", "json", url)
	if code != 0 {
		t.Fatalf("perflab load exited %d: %s", code, stderr)
	}
	var doc struct {
		Requests    int64              `json:"requests"`
		Duration    float64            `json:"duration_seconds"`
		RPS         float64            `json:"rps"`
		Errors      *int64             `json:"errors"`
		StatusCodes map[string]int64   `json:"status_codes"`
		Latency     map[string]float64 `json:"latency_seconds"`
		Uncorrected map[string]float64 `json:"uncorrected_latency_seconds"`
		Histogram   []struct{ Mark float64 }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, k := range []string{"p50", "p90", "p99", "p999", "max", "mean"} {
		if doc.Latency[k] <= 0 || doc.Uncorrected[k] <= 0 {
			t.Errorf("latency %s = %v, uncorrected %v; want > 0", k, doc.Latency[k], doc.Uncorrected[k])
		}
	}
	if doc.Requests != 50 || doc.StatusCodes["200"] != 50 || doc.Errors == nil || *doc.Errors != 0 ||
		doc.Duration < 0.09 || doc.RPS <= 0 || len(doc.Histogram) != 11 {
		t.Errorf("bad document:\n%s", out)
	}
}

func loadUsageErrors(t *testing.T, bin string) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"load"}, "want exactly one URL"},
		{[]string{"load", "::not a url"}, "bad URL"},
		{[]string{"load", "ftp://127.0.0.1/"}, "scheme must be http or https"},
		{[]string{"load", "-H", "NoColon", "http://127.0.0.1/"}, "-H: header \"NoColon\""},
		{[]string{"load", "-H", "Bad Name: v", "http://127.0.0.1/"}, "-H:"},
		{[]string{"load", "-d", "x", "-D", "f", "http://127.0.0.1/"}, "-d and -D conflict"},
		{[]string{"load", "-n", "2", "-c", "5", "http://127.0.0.1/"}, "-n (2) cannot be less than -c (5)"},
		{[]string{"load", "-c", "0", "http://127.0.0.1/"}, "-c must be at least 1"},
		{[]string{"load", "-q", "-5", "http://127.0.0.1/"}, "-q must not be negative"},
		{[]string{"load", "-o", "xml", "http://127.0.0.1/"}, "-o must be csv or json"},
		{[]string{"load", "-m", "GE T", "http://127.0.0.1/"}, "-m: bad method"},
		{[]string{"load", "-a", "nocolon", "http://127.0.0.1/"}, "-a: want username:password"},
		{[]string{"load", "-x", "ftp://p:1", "http://127.0.0.1/"}, "-x:"},
		{[]string{"load", "-z", "soon", "http://127.0.0.1/"}, "-z"},
		{[]string{"load", "-fail-on-errors", "5", "http://127.0.0.1/"}, "write 5% for a percentage"},
		{[]string{"load", "-fail-on-errors", "lots", "http://127.0.0.1/"}, "-fail-on-errors: bad share"},
		{[]string{"load", "-fail-on-errors", "-1%", "http://127.0.0.1/"}, "is negative"},
	}
	for _, tt := range tests {
		_, stderr, code := runPerflab(t, bin, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit 2 and a one-line error containing %q", tt.args, code, stderr, tt.want)
		}
	}
}

// loadInterrupt sends SIGINT to a long run and expects a report of
// what completed, exit status 0.
func loadInterrupt(t *testing.T, bin string) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "Hello, World!\n")
	}))
	defer srv.Close()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "load", "-z", "1m", "-c", "2", "-q", "200", srv.URL+"/")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupted once a few requests are answered (its handler is set
	// before the first is sent).
	for deadline := time.Now().Add(10 * time.Second); hits.Load() < 10 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if err != nil || time.Since(start) > 3*time.Second {
		t.Fatalf("after SIGINT: %v after %v; stderr %s", err, time.Since(start), stderr.String())
	}
	m := regexp.MustCompile(`\[200\]\t([0-9]+) responses`).FindStringSubmatch(stdout.String())
	if m == nil || m[1] == "0" || !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("no report of completed requests:\nstdout: %s\nstderr: %s", stdout.String(), stderr.String())
	}
}

// loadRequestFlags checks that hey's request flags reach the server.
func loadRequestFlags(t *testing.T, bin string) {
	type seen struct{ method, host, ctype, accept, auth, custom, body string }
	got := make(chan seen, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.Host, r.Header.Get("Content-Type"), r.Header.Get("Accept"),
			r.Header.Get("Authorization"), r.Header.Get("X-Custom"), string(b)}
	}))
	defer srv.Close()
	_, stderr, code := runPerflab(t, bin, "load", "-n", "1", "-c", "1", "-m", "put", "-d", "payload",
		"-T", "application/json", "-A", "text/plain", "-a", "user:pw", "-H", "X-Custom: 42",
		"-host", "example.test", srv.URL+"/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := seen{"PUT", "example.test", "application/json", "text/plain", "Basic dXNlcjpwdw==", "42", "payload"}
	if s := <-got; s != want {
		t.Errorf("server saw %+v, want %+v", s, want)
	}
}

// rateNoteRE matches the line perflab load prints when -q and -c > 1 are
// both given, capturing hey's flags for the same load.
var rateNoteRE = regexp.MustCompile(`^perflab load: -q 200 is the total rate of the 4 workers together, not each one's as in hey \(the same load in hey: -c 4 -q ([0-9.]+)\)\n$`)

// loadRateNote checks the note on -q: one line on stderr with -c 4, none
// with -c 1, and the hey flags it names, run by the real hey against the
// same server, send about the rate perflab sent.
func loadRateNote(t *testing.T, bin string) {
	hey := testprog.Oracle(t, "hey")
	url := helloServer(t).URL + "/"
	out, stderr, code := runPerflab(t, bin, "load", "-n", "40", "-c", "4", "-q", "200", url)
	m := rateNoteRE.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("exit %d, stderr %q; want 0 and one line matching %s", code, stderr, rateNoteRE)
	}
	heyOut, err := exec.Command(hey, "-n", "40", "-c", "4", "-q", m[1], url).Output()
	if err != nil {
		t.Fatalf("hey: %v", err)
	}
	ours, theirs := requestsPerSec(t, out), requestsPerSec(t, string(heyOut))
	if r := theirs / ours; r < 0.6 || r > 1.6 {
		t.Errorf("hey -c 4 -q %s sent %.0f req/s, perflab load -c 4 -q 200 %.0f: want about the same", m[1], theirs, ours)
	}
	if _, stderr, code := runPerflab(t, bin, "load", "-n", "4", "-c", "1", "-q", "200", url); code != 0 || stderr != "" {
		t.Errorf("-c 1: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
}

// requestsPerSec reads the Requests/sec line of a hey or perflab load report.
func requestsPerSec(t *testing.T, report string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  Requests/sec:\t([0-9.]+)$`).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no Requests/sec in\n%s", report)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v <= 0 {
		t.Fatalf("Requests/sec %q in\n%s", m[1], report)
	}
	return v
}
