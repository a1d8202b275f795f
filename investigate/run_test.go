package investigate

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/loadgen"
)

// rssOptions runs the real rsssearch service of one variant under Run.
func rssOptions(t *testing.T, bin, variant, dir string) Options {
	port, debug := testprog.FreePort(t), testprog.FreePort(t)
	return Options{
		Program: bin,
		Args:    []string{"-variant=" + variant, "-addr=127.0.0.1:" + port, "-debug-addr=127.0.0.1:" + debug},
		URLs:    []string{"http://127.0.0.1:" + port + "/search?term=covid-19&cnn=on&bbc=on&nyt=on"},
		Pprof:   "http://127.0.0.1:" + debug + "/debug/pprof/",
		Load:    loadgen.Config{Method: "POST", C: 4, N: 3000, Duration: 2500 * time.Millisecond},
		Dir:     dir,
		Warmup:  500 * time.Millisecond,
	}
}

// TestRSSSearch runs the article's case study for real: naive, then tuned
// with naive as its base.
func TestRSSSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a server under load for seconds")
	}
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/rsssearch/cmd/rsssearch")
	dir := t.TempDir()
	naive := runRSS(t, bin, "naive", filepath.Join(dir, "naive"), "")
	var first *Finding
	for i := range naive.Findings {
		if naive.Findings[i].Kind == "alloc" {
			first = &naive.Findings[i]
			break
		}
	}
	if first == nil || !strings.Contains(first.Title, "rssSearch") || !strings.Contains(first.Title, "strings.ToLower") {
		t.Errorf("naive: first allocation finding %+v, want one naming rssSearch and strings.ToLower", first)
	}
	// strings.ToLower allocates inside: the site is that callee's, with a
	// hint naming it (the line's own notes are about other allocations).
	if s := naive.AllocTop[0]; s.Category != "callee" || !strings.Contains(s.Hint, "strings.ToLower") || !strings.HasSuffix(s.File, "search.go") {
		t.Errorf("naive: top allocation site %+v, want search.go's call of strings.ToLower with a hint naming it", s)
	}
	checkOneGCVerdict(t, "naive", naive)
	tuned := runRSS(t, bin, "tuned", filepath.Join(dir, "tuned"), filepath.Join(dir, "naive"))
	checkOneGCVerdict(t, "tuned", tuned)
	if naive.AllocBytesPerRequest < 5*tuned.AllocBytesPerRequest || tuned.AllocBytesPerRequest <= 0 {
		t.Errorf("bytes per request: naive %.0f, tuned %.0f; want tuned at least 5x fewer", naive.AllocBytesPerRequest, tuned.AllocBytesPerRequest)
	}
	if tuned.GC.CyclesPer1000 >= naive.GC.CyclesPer1000 {
		t.Errorf("GCs per 1000 requests: naive %.1f, tuned %.1f", naive.GC.CyclesPer1000, tuned.GC.CyclesPer1000)
	}
	b := tuned.Base
	if b == nil || b.AllocBytesPerRequest.Delta > -0.8 || b.GCCyclesPer1000.Delta >= 0 || b.Benchstat == "" {
		t.Errorf("-base: %+v, want the drop in allocations and GCs and the rounds compared", b)
	}
	checkFiles(t, filepath.Join(dir, "tuned"))
}

// checkOneGCVerdict: the report judges the GC once, by gctrace over the
// load; the trace's summary keeps its figures but no verdict of its own,
// which had read "GC-bound" beside gctrace's "16% CPU in GC".
func checkOneGCVerdict(t *testing.T, name string, rep *Report) {
	t.Helper()
	if rep.GC.Cycles == 0 || rep.Trace.File == "" {
		t.Fatalf("%s: %d GC cycles, trace %q: want both", name, rep.GC.Cycles, rep.Trace.File)
	}
	for _, v := range append(rep.Trace.Verdicts, rep.Trace.Summary...) {
		if strings.Contains(v, "GC-bound") {
			t.Errorf("%s: the trace's summary judges the GC (%q) beside gctrace's %.1f%% CPU in GC", name, v, rep.GC.CPUPercent)
		}
	}
}

// runRSS runs rsssearch's variant under perflab investigate, with base if not "".
// Its ports are free when chosen but another test may take one before the
// program binds it: then the program says so in its log, and the run is
// tried again on new ports.
func runRSS(t *testing.T, bin, variant, dir, base string) *Report {
	t.Helper()
	for try := 1; ; try++ {
		o := rssOptions(t, bin, variant, dir)
		o.Base = base
		rep, err := Run(context.Background(), o)
		if err == nil {
			return rep
		}
		log, _ := os.ReadFile(filepath.Join(dir, "program.log"))
		if try < 3 && strings.Contains(string(log), "address already in use") {
			continue
		}
		t.Fatalf("%v\nprogram.log:\n%s", err, log)
	}
}

// checkFiles checks the artefacts a full run writes, and report.json's keys.
func checkFiles(t *testing.T, dir string) {
	for _, name := range []string{"program.log", "cpu.pprof", "trace.out", "allocs-start.pb.gz", "allocs-end.pb.gz",
		"goroutine-start.pb.gz", "goroutine-end.pb.gz", "report.json", "report.txt", "report.html", "rounds.txt"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"rps", "latency_seconds", "alloc_bytes_per_request", "allocs_per_request", "gc", "cpu_top", "alloc_top", "findings"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report.json has no %q", k)
		}
	}
	gc := m["gc"].(map[string]any)
	for _, k := range []string{"cycles", "cycles_per_1000_requests", "cpu_percent", "pause_p99_seconds"} {
		if _, ok := gc[k]; !ok {
			t.Errorf("report.json's gc has no %q", k)
		}
	}
	if log, _ := os.ReadFile(filepath.Join(dir, "program.log")); !strings.Contains(string(log), "gc 1 @") {
		t.Errorf("program.log has no gctrace lines")
	}
}

// A test program: "exit" exits at once, "silent" never listens,
// "nopprof" serves without /debug/pprof/.
const misbehaving = `package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	switch os.Args[1] {
	case "exit":
		println("bye")
		os.Exit(3)
	case "silent": // and deaf to SIGTERM
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Hour)
	case "leak":
		http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			go func() { select {} }()
		})
		http.ListenAndServe(os.Args[2], nil)
	case "nopprof":
		http.ListenAndServe(os.Args[2], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write(make([]byte, 1000))
		}))
	}
}
`

func TestMisbehavingPrograms(t *testing.T) {
	bin := testprog.BuildSource(t, misbehaving)
	port := testprog.FreePort(t)
	base := func(mode string) Options {
		return Options{Program: bin, Args: []string{mode, "127.0.0.1:" + port}, URLs: []string{"http://127.0.0.1:" + port + "/"},
			Load: loadgen.Config{C: 2, N: 200}, Dir: t.TempDir(), Wait: 2 * time.Second, Warmup: 200 * time.Millisecond}
	}
	for _, c := range []struct {
		mode, want string
		status     int
	}{
		{"exit", "exited with status 3 before", 3},
		{"silent", "did not answer within 2s", 128 + 9}, // SIGTERM ignored: killed
	} {
		o := base(c.mode)
		o.Grace = 300 * time.Millisecond
		rep, err := Run(context.Background(), o)
		if err == nil || !strings.Contains(err.Error(), c.want) || rep == nil {
			t.Errorf("%s: %v, want an error saying %q", c.mode, err, c.want)
			continue
		}
		if rep.ExitStatus != c.status {
			t.Errorf("%s: exit status %d, want %d", c.mode, rep.ExitStatus, c.status)
		}
		if _, err := os.Stat(filepath.Join(o.Dir, "report.json")); err != nil {
			t.Errorf("%s: no report kept: %v", c.mode, err)
		}
	}
	o := base("nopprof")
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("nopprof: %v", err)
	}
	if len(rep.Problems) == 0 || !strings.Contains(rep.Problems[0], "does not serve /debug/pprof/") || rep.Requests < 200 {
		t.Errorf("nopprof: problems %q, %d requests", rep.Problems, rep.Requests)
	}
	o = base("leak") // the default -pprof: /debug/pprof/ on the URL's host
	rep, err = Run(context.Background(), o)
	if err != nil {
		t.Fatalf("leak: %v", err)
	}
	if !slices.ContainsFunc(rep.Findings, func(f Finding) bool { return f.Kind == "goroutines" }) ||
		rep.Goroutines.End < rep.Goroutines.Start+200 || len(rep.Goroutines.Leaks) == 0 {
		t.Errorf("leak: goroutines %+v, findings %+v", rep.Goroutines, rep.Findings)
	}
	for _, l := range rep.Goroutines.Leaks { // the connections' goroutines come and go: no leak
		if strings.Contains(l, "created by net/http.") {
			t.Errorf("leak: a connection's goroutines reported as a leak: %s", l)
		}
	}
	if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second); err == nil {
		c.Close()
		t.Errorf("the program still listens after Run")
	}
}

// TestLoadModes runs two URLs of a real server in a closed loop, then at
// a fixed rate: the latency histogram claims a coordinated-omission
// correction only at a fixed rate, and the rounds are one series per URL
// in the text and the charts, since one URL is loaded after the other.
func TestLoadModes(t *testing.T) {
	bin := testprog.BuildSource(t, misbehaving)
	port := testprog.FreePort(t)
	urls := []string{"http://127.0.0.1:" + port + "/a", "http://127.0.0.1:" + port + "/b"}
	for _, rate := range []float64{0, 400} {
		o := Options{Program: bin, Args: []string{"nopprof", "127.0.0.1:" + port}, URLs: urls,
			Load: loadgen.Config{C: 2, Duration: 400 * time.Millisecond, Rate: rate}, Dir: t.TempDir(), Wait: 2 * time.Second, Warmup: 100 * time.Millisecond, Rounds: 4}
		rep, err := Run(context.Background(), o)
		if err != nil {
			t.Fatalf("rate %v: %v", rate, err)
		}
		text, _ := os.ReadFile(filepath.Join(o.Dir, "report.txt"))
		corrected := strings.Contains(string(text), "corrected for coordinated omission")
		if corrected != (rate > 0) || rate == 0 && !strings.Contains(string(text), "closed loop, 2 workers") {
			t.Errorf("rate %v: the histogram's note says corrected=%v:\n%s", rate, corrected, text)
		}
		for _, u := range urls {
			if !regexp.MustCompile(`(?m)^  rounds of GET ` + regexp.QuoteMeta(u) + ` \(req/s\):( \d+){4}$`).Match(text) {
				t.Errorf("rate %v: no line of the 4 rounds of %s:\n%s", rate, u, text)
			}
		}
		page, _ := os.ReadFile(filepath.Join(o.Dir, "report.html"))
		for _, title := range []string{"Throughput by round", "Mean latency by round"} {
			var c chart.Chart
			i := strings.Index(string(page), `{"title":"`+title+`"`)
			if i < 0 || json.NewDecoder(strings.NewReader(string(page[i:]))).Decode(&c) != nil {
				t.Fatalf("rate %v: no chart %q in report.html", rate, title)
			}
			if len(c.Series) != 2 || c.Series[0].Label != "GET "+urls[0] || c.Series[1].Label != "GET "+urls[1] || len(c.X) != 4 {
				t.Errorf("rate %v: %s has %d series over %d rounds, want one per URL over 4: %+v", rate, title, len(c.Series), len(c.X), c)
			}
		}
		if rep.Rate != rate || rep.Workers != 2 {
			t.Errorf("report.json: rate %v, workers %d", rep.Rate, rep.Workers)
		}
	}
}

// allocServer allocates a map and a string from strings.Repeat on one
// line of its handler, the case where investigate and escapes disagreed.
// The map has nine entries, so that it takes a table of its own (about
// 700 bytes; a map of one entry took about 200, which at the default
// sampling rate of 512 KB left it out of the sampled sites in some runs).
const allocServer = `package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
	"strings"
)

var sink map[string]string

func main() {
	http.HandleFunc("/alloc", func(w http.ResponseWriter, r *http.Request) {
		sink = map[string]string{"k": strings.Repeat("x", 1000+len(r.URL.Path)), "a": "", "b": "", "c": "", "d": "", "e": "", "f": "", "g": "", "h": ""}
	})
	http.ListenAndServe(os.Args[1], nil)
}
`

// TestAllocSitesAsEscapes runs a real server under Run and checks its
// allocation sites against perflab escapes's analysis of the same
// allocations (package compilenotes on allocs-delta.pb.gz): the same
// lines, callees, categories and hints, so a line gets one explanation.
func TestAllocSitesAsEscapes(t *testing.T) {
	bin := testprog.BuildSource(t, allocServer)
	port := testprog.FreePort(t)
	o := Options{Program: bin, Args: []string{"127.0.0.1:" + port}, URLs: []string{"http://127.0.0.1:" + port + "/alloc"},
		Load: loadgen.Config{C: 2, Duration: 1500 * time.Millisecond}, Dir: t.TempDir(), Warmup: 100 * time.Millisecond, TraceSeconds: -1}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	a, err := compilenotes.Analyze(context.Background(), reporttest.ReadProfile(t, filepath.Join(o.Dir, "allocs-delta.pb.gz")),
		compilenotes.AnalyzeOptions{SampleIndex: "alloc_space"})
	if err != nil || a.BuildError != "" {
		t.Fatalf("escapes: %v %s", err, a.BuildError)
	}
	type key struct {
		file      string
		line      int64
		via, hint string
		category  string
	}
	escapes := map[key]bool{}
	for _, st := range a.Sites {
		escapes[key{st.File, int64(st.Line), st.Via, st.Hint, st.Category}] = true
	}
	var lit, repeat bool
	for _, s := range rep.AllocTop {
		if !escapes[key{s.File, s.Line, s.Callee, s.Hint, s.Category}] {
			t.Errorf("site %s:%d → %q, %s: %q, not what escapes says", s.File, s.Line, s.Callee, s.Category, s.Hint)
		}
		lit = lit || s.Callee == "" && s.Category == "map" && strings.HasSuffix(s.File, "main.go")
		repeat = repeat || s.Callee == "strings.Repeat" && strings.HasPrefix(s.Hint, "strings.Repeat allocates") && len(s.Reasons) == 0
	}
	if !lit || !repeat {
		t.Errorf("want the map literal as a map and strings.Repeat's site with its own hint: %+v", rep.AllocTop)
	}
}

func TestBadOptions(t *testing.T) {
	dir := t.TempDir()
	for _, o := range []Options{
		{Program: "x", URLs: []string{"http://example.com/"}, Dir: dir},
		{Program: "x", URLs: []string{"ftp://127.0.0.1/"}, Dir: dir},
		{Program: "x", Dir: dir},
	} {
		if _, err := Run(context.Background(), o); !errors.Is(err, ErrUsage) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
	srv := &http.Server{Handler: http.NotFoundHandler()}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(ln)
	defer srv.Close()
	_, err := Run(context.Background(), Options{Program: "x", URLs: []string{"http://" + ln.Addr().String() + "/"}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "already taken") {
		t.Errorf("port taken: %v", err)
	}
	_, err = Run(context.Background(), Options{Program: filepath.Join(dir, "nonexistent"), URLs: []string{"http://127.0.0.1:" + testprog.FreePort(t) + "/"}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "nonexistent") {
		t.Errorf("missing program: %v", err)
	}
}

// TestProcessGroup: a program's own children are stopped with it.
func TestProcessGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /bin/sh and /proc")
	}
	bin := testprog.BuildSource(t, misbehaving)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	port := testprog.FreePort(t)
	o := Options{Program: "/bin/sh", Args: []string{"-c", "sleep 300 & echo $! > " + pidFile + "; exec " + bin + " nopprof 127.0.0.1:" + port},
		URLs: []string{"http://127.0.0.1:" + port + "/"}, Load: loadgen.Config{C: 1, N: 20}, Dir: dir, Warmup: -1}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the program's child %d still runs after Run", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// processAlive reports whether pid runs and is not a zombie.
func processAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// TestUsageErrorNamesTheOption: a bad option is a *UsageError whose
// message starts with the option, not with a prefix to cut.
func TestUsageErrorNamesTheOption(t *testing.T) {
	_, err := Run(context.Background(), Options{Program: "x", URLs: []string{"ftp://127.0.0.1/"}, Dir: t.TempDir()})
	var ue *UsageError
	if !errors.As(err, &ue) || strings.HasPrefix(err.Error(), "usage") {
		t.Errorf("Run: %v; want a *UsageError that names the option", err)
	}
}
