package collect_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	httppprof "net/http/pprof"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/internal/testprog"
)

// serve starts a debug server on 127.0.0.1:0 for the test.
func serve(t *testing.T, opts collect.ServerOptions) string {
	t.Helper()
	s, err := collect.Listen("127.0.0.1:0", opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return "http://" + s.Addr()
}

type response struct {
	status int
	body   []byte
	header http.Header
}

// get requests url, with "Authorization: Bearer token" if token is set.
func get(t *testing.T, url, token string) response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{resp.StatusCode, body, resp.Header}
}

// getOK requests url and fails the test unless it answers 200.
func getOK(t *testing.T, url string) []byte {
	t.Helper()
	r := get(t, url, "")
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, r.status, r.body)
	}
	return r.body
}

// spin burns CPU in a function the tests look for, until stop closes.
//
//go:noinline
func spin(stop chan struct{}) {
	x := 1
	for {
		select {
		case <-stop:
			return
		default:
		}
		for range 100000 {
			x = x*31 + 7
		}
	}
}

func startSpin(t *testing.T) {
	stop := make(chan struct{})
	go spin(stop)
	t.Cleanup(func() { close(stop) })
}

const spinFunc = "github.com/perflab/perflab/collect_test.spin"

// TestServedProfiles fetches every profile the handler serves over real
// HTTP and reads each with perflab's loader.
func TestServedProfiles(t *testing.T) {
	startSpin(t)
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"

	cpu := parse(t, "profile", getOK(t, base+"profile?seconds=0.5"))
	if cum(cpu, spinFunc, index(t, cpu, "cpu")) == 0 {
		t.Errorf("served CPU profile has no time in spin")
	}
	wall := parse(t, "wall", getOK(t, base+"wall?seconds=0.5"))
	if d := time.Duration(cum(wall, spinFunc, index(t, wall, "wall"))); d < 100*time.Millisecond || d > time.Second {
		t.Errorf("served wall profile has %v in spin, want about 500ms", d)
	}
	for _, name := range []string{"heap?gc=1", "allocs", "goroutine", "block", "mutex", "threadcreate"} {
		parse(t, name, getOK(t, base+name))
	}
	if g := getOK(t, base+"goroutine?debug=1"); !strings.HasPrefix(string(g), "goroutine profile: total") {
		t.Errorf("goroutine?debug=1 starts %q", clipBytes(g))
	}
	if g := getOK(t, base+"goroutine?debug=2"); !strings.Contains(string(g), spinFunc) || !strings.Contains(string(g), "goroutine ") {
		t.Errorf("goroutine?debug=2 lacks the spinning goroutine's stack")
	}
	if n := readTrace(t, "trace", getOK(t, base+"trace?seconds=0.2")); n == 0 {
		t.Errorf("served trace holds no events")
	}
	index := string(getOK(t, base))
	for _, want := range []string{`href="heap?debug=1"`, `href="profile"`, `href="wall"`, `href="../metrics"`} {
		if !strings.Contains(index, want) {
			t.Errorf("index lacks %s", want)
		}
	}
	if strings.Contains(index, `href="cmdline"`) {
		t.Errorf("index links to cmdline although it is withheld")
	}
}

// TestDeltaProfile fetches allocs?seconds=N, the growth over N seconds.
func TestDeltaProfile(t *testing.T) {
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { allocLoop(stop) })
	p := parse(t, "allocs-delta", getOK(t, base+"allocs?seconds=0.4"))
	close(stop)
	wg.Wait()
	if d := time.Duration(p.DurationNanos); d < 400*time.Millisecond || d > 2*time.Second {
		t.Errorf("delta profile covers %v, want about 400ms", d)
	}
	if cum(p, "github.com/perflab/perflab/collect_test.allocLoop", index(t, p, "alloc_space")) <= 0 {
		t.Errorf("delta profile shows no allocation by allocLoop")
	}
}

var allocSink []byte

//go:noinline
func allocLoop(stop chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
			allocSink = make([]byte, 1<<20)
		}
	}
}

// TestOneAtATime checks that a second CPU profile during the first gets
// 429, and that one is served again once the first ends.
func TestOneAtATime(t *testing.T) {
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"
	done := make(chan response, 1)
	go func() { done <- get(t, base+"profile?seconds=1.5", "") }()
	var second response
	for second.status != http.StatusTooManyRequests {
		select {
		case r := <-done:
			t.Fatalf("no second request got 429 while the first ran (first: %d, last second: %d %s)", r.status, second.status, second.body)
		case <-time.After(50 * time.Millisecond):
		}
		second = get(t, base+"profile?seconds=0.1", "")
	}
	checkErrorBody(t, second, "already being recorded")
	if second.header.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	if r := <-done; r.status != http.StatusOK {
		t.Fatalf("first profile: %d %s", r.status, r.body)
	}
	getOK(t, base+"profile?seconds=0.1")
}

// checkErrorBody checks an error answer is one line of plain text that
// contains want.
func checkErrorBody(t *testing.T, r response, want string) {
	t.Helper()
	body := string(r.body)
	if !strings.HasSuffix(body, "\n") || strings.Count(body, "\n") != 1 {
		t.Errorf("error body %q is not one line", body)
	}
	if !strings.Contains(body, want) {
		t.Errorf("error body %q lacks %q", body, want)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("error Content-Type %q", ct)
	}
}

func TestBadRequests(t *testing.T) {
	base := serve(t, collect.ServerOptions{MaxDuration: 5 * time.Second}) + "/debug"
	for _, tc := range []struct {
		path   string
		status int
		msg    string
	}{
		{"/pprof/profile?seconds=abc", 400, `bad seconds "abc"`},
		{"/pprof/profile?seconds=-1", 400, "positive"},
		{"/pprof/profile?seconds=0", 400, "positive"},
		{"/pprof/profile?seconds=NaN", 400, "want a number"},
		{"/pprof/profile?seconds=6", 400, "at most 5s"},
		{"/pprof/trace?seconds=1e9", 400, "at most 5s"},
		{"/pprof/heap?seconds=x", 400, "bad seconds"},
		{"/pprof/goroutine?seconds=1", 400, "not supported"},
		{"/pprof/heap?debug=9", 400, "bad debug"},
		{"/pprof/heap?gc=yes", 400, "bad gc"},
		{"/pprof/nosuch", 404, `unknown profile "nosuch"`},
		{"/pprof/cmdline", 403, "withheld"},
		{"/pprof/flightrecorder", 404, "flight recorder is off"},
		{"/elsewhere", 404, "not found"},
	} {
		r := get(t, base+tc.path, "")
		if r.status != tc.status {
			t.Errorf("GET %s: %d %q, want %d", tc.path, r.status, r.body, tc.status)
			continue
		}
		checkErrorBody(t, r, tc.msg)
	}
}

// TestToken checks bearer-token access: a missing or wrong token gets 401
// and a body that repeats neither token.
func TestToken(t *testing.T) {
	const token = "s3cret-token-value"
	base := serve(t, collect.ServerOptions{Token: token}) + "/debug/pprof/heap"
	for _, tc := range []struct{ sent, msg string }{
		{"", "missing bearer token"},
		{"wrong-token-value", "invalid bearer token"},
		{token + "x", "invalid bearer token"},
	} {
		r := get(t, base, tc.sent)
		if r.status != http.StatusUnauthorized {
			t.Errorf("token %q: status %d, want 401", tc.sent, r.status)
		}
		checkErrorBody(t, r, tc.msg)
		if strings.Contains(string(r.body), token) || (tc.sent != "" && strings.Contains(string(r.body), tc.sent)) {
			t.Errorf("error body %q repeats a token", r.body)
		}
		if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("401 without a Bearer challenge")
		}
	}
	if r := get(t, base, token); r.status != http.StatusOK {
		t.Fatalf("right token: %d %s", r.status, r.body)
	} else {
		parse(t, "heap", r.body)
	}
	for _, scheme := range []string{"bearer", "BEARER", "Bearer  "} { // RFC 7235: any case
		req, _ := http.NewRequest("GET", base, nil)
		req.Header.Set("Authorization", scheme+" "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("Authorization: %s <token>: %s, want 200", scheme, resp.Status)
		}
	}
}

// TestSymbolMatchesNetHTTPPprof compares /symbol with net/http/pprof's
// answer to the same request: pprof's remote symbolization relies on it.
func TestSymbolMatchesNetHTTPPprof(t *testing.T) {
	base := serve(t, collect.ServerOptions{})
	oracle := httptest.NewServer(http.HandlerFunc(httppprof.Symbol))
	defer oracle.Close()
	pc := reflect.ValueOf(spin).Pointer()
	query := fmt.Sprintf("%#x+%#x+0+junk", pc, reflect.ValueOf(TestToken).Pointer())
	for _, method := range []string{"GET", "POST"} {
		ours := symbol(t, method, base+"/debug/pprof/symbol", query)
		want := symbol(t, method, oracle.URL, query)
		if ours != want {
			t.Errorf("%s symbol: got\n%s\nnet/http/pprof says\n%s", method, ours, want)
		}
		if !strings.Contains(ours, spinFunc) {
			t.Errorf("%s symbol: %q lacks %s", method, ours, spinFunc)
		}
	}
	if got, want := symbol(t, "GET", base+"/debug/pprof/symbol", ""), symbol(t, "GET", oracle.URL, ""); got != want {
		t.Errorf("bare GET symbol: %q, net/http/pprof says %q", got, want)
	}
}

func symbol(t *testing.T, method, url, query string) string {
	t.Helper()
	var resp *http.Response
	var err error
	if method == "POST" {
		resp, err = http.Post(url, "text/plain", strings.NewReader(query))
	} else {
		if query != "" {
			url += "?" + query
		}
		resp, err = http.Get(url)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestVarsAndMetrics reads /debug/vars and /debug/metrics as JSON.
func TestVarsAndMetrics(t *testing.T) {
	withheld := serve(t, collect.ServerOptions{}) + "/debug/"
	shown := serve(t, collect.ServerOptions{Cmdline: true}) + "/debug/"
	var vars map[string]json.RawMessage
	if err := json.Unmarshal(getOK(t, withheld+"vars"), &vars); err != nil {
		t.Fatalf("/debug/vars: %v", err)
	}
	if _, ok := vars["memstats"]; !ok {
		t.Errorf("/debug/vars lacks memstats")
	}
	if _, ok := vars["cmdline"]; ok {
		t.Errorf("/debug/vars shows cmdline although it is withheld")
	}
	if err := json.Unmarshal(getOK(t, shown+"vars"), &vars); err != nil || vars["cmdline"] == nil {
		t.Errorf("/debug/vars with Cmdline: cmdline %s, %v", vars["cmdline"], err)
	}
	if got := string(getOK(t, shown+"pprof/cmdline")); got != strings.Join(osArgs(), "\x00") {
		t.Errorf("cmdline = %q", got)
	}

	var m struct {
		Metrics []struct {
			Name    string
			Kind    string
			Value   json.Number
			Buckets []struct{ Count uint64 }
		}
	}
	runtime.GC()
	if err := json.Unmarshal(getOK(t, withheld+"metrics"), &m); err != nil {
		t.Fatalf("/debug/metrics: %v", err)
	}
	found := map[string]bool{}
	for _, mv := range m.Metrics {
		switch {
		case mv.Name == "/gc/cycles/total:gc-cycles":
			found[mv.Name] = mv.Kind == "uint64" && mv.Value != "0"
		case mv.Name == "/sched/latencies:seconds":
			found[mv.Name] = mv.Kind == "histogram" && len(mv.Buckets) > 0
		}
	}
	if !found["/gc/cycles/total:gc-cycles"] || !found["/sched/latencies:seconds"] {
		t.Errorf("/debug/metrics: gc cycles and scheduler latencies read %v", found)
	}
}

// TestFlightRecorder snapshots the flight recorder over HTTP.
func TestFlightRecorder(t *testing.T) {
	startSpin(t)
	base := serve(t, collect.ServerOptions{FlightRecorder: time.Second}) + "/debug/pprof/"
	time.Sleep(200 * time.Millisecond)
	if n := readTrace(t, "flightrecorder", getOK(t, base+"flightrecorder")); n < 100 {
		t.Errorf("flight recorder snapshot holds %d events, want the last second's", n)
	}
	if !strings.Contains(string(getOK(t, base)), `href="flightrecorder"`) {
		t.Errorf("index does not link to the flight recorder")
	}
}

// TestDefaultHost checks that an empty host binds loopback only.
func TestDefaultHost(t *testing.T) {
	s, err := collect.Listen(":0", collect.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Errorf("Listen(\":0\") bound %s, want 127.0.0.1", s.Addr())
	}
	req, _ := http.NewRequest("GET", "http://"+s.Addr()+"/debug/pprof/heap", nil)
	req.Host = "attacker.example:80"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("request with Host %s: %s, want 403", req.Host, resp.Status)
	}
	for _, host := range []string{"localhost", "127.0.0.1", "[::1]:6060"} {
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("request with Host %s: %s, want 200", host, resp.Status)
		}
	}
	if _, err := collect.Listen("no-port", collect.ServerOptions{}); err == nil || !strings.Contains(err.Error(), `"no-port"`) {
		t.Errorf("Listen(\"no-port\") error %v, want one naming the address", err)
	}
}

// TestGoToolPprof fetches a CPU profile with go tool pprof itself, the
// client the handler must stay compatible with.
func TestGoToolPprof(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	startSpin(t)
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"
	out, err := exec.Command(testprog.Oracle(t, "pprof"), "-top", "-seconds=1", base+"profile").CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Type: cpu") || !strings.Contains(string(out), "collect_test.spin") {
		t.Errorf("go tool pprof -top shows no cpu time in spin:\n%s", out)
	}
}

// TestProgramAlreadyProfiling checks a CPU profile request while the
// program itself runs one: 429, not a broken profile.
func TestProgramAlreadyProfiling(t *testing.T) {
	base := serve(t, collect.ServerOptions{}) + "/debug/pprof/"
	s := collect.Start(collect.Profiles(collect.CPU), collect.Dir(t.TempDir()), collect.IgnoreEnv(), collect.NoSignals())
	if s.Err() != nil {
		t.Skipf("cannot start a CPU profile here: %v", s.Err())
	}
	r := get(t, base+"profile?seconds=0.1", "")
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d %q, want 429", r.status, r.body)
	}
	checkErrorBody(t, r, "the program is already recording")
	getOK(t, base+"profile?seconds=0.1")
}
