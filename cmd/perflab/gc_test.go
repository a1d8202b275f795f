package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/perflab/perflab/godebug"
	"github.com/perflab/perflab/internal/testprog"
)

// Real programs the gc tests run under GODEBUG=gctrace=1. Each runs for
// about a second; the first argument, if any, is its exit status.
const (
	allocProg = `package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

var sink []byte

func main() {
	n := 0
	for deadline := time.Now().Add(800 * time.Millisecond); time.Now().Before(deadline); {
		for i := 0; i < 1000; i++ {
			sink = make([]byte, 1024+i)
			n++
		}
	}
	fmt.Println("allocations:", n)
	fmt.Fprintln(os.Stderr, "alloc done")
	if len(os.Args) > 1 {
		code, _ := strconv.Atoi(os.Args[1])
		os.Exit(code)
	}
}
`
	// leakProg keeps every request's record in an ever-growing map, and
	// makes short-lived garbage as a server would. It counts work rather
	// than time, so that a busy machine changes its length, not its GCs;
	// $LEAK_SLEEP_MS (default 2) paces it: 55 makes its last GC come after 5 s.
	leakProg = `package main

import (
	"os"
	"strconv"
	"time"
)

var sink []byte

func main() {
	pause := 2 * time.Millisecond
	if ms, err := strconv.Atoi(os.Getenv("LEAK_SLEEP_MS")); err == nil {
		pause = time.Duration(ms) * time.Millisecond
	}
	m := make(map[int][]byte)
	for i := 0; i < 150*4000; i++ {
		m[i] = make([]byte, 64)
		if i%4000 == 0 {
			sink = make([]byte, 512<<10)
			time.Sleep(pause)
		}
	}
	println("entries", len(m))
}
`
	// steadyProg fills a 16 MB cache at start (a warm-up), then makes lots
	// of short-lived garbage while keeping a constant live heap.
	steadyProg = `package main

import "time"

var cache [][]byte
var ring [256][]byte

func main() {
	for i := 0; i < 4096; i++ {
		cache = append(cache, make([]byte, 4096))
	}
	for i := 0; i < 150000; i++ {
		ring[i%len(ring)] = make([]byte, 8192)
		if i%500 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	println("cache", len(cache))
}
`
	// sleepProg waits for a signal for up to 30 s.
	sleepProg = `package main

import (
	"fmt"
	"time"
)

var sink []byte

func main() {
	for i := 0; i < 100; i++ {
		sink = make([]byte, 1<<20)
	}
	fmt.Println("sleeping")
	time.Sleep(30 * time.Second)
}
`
)

// TestGC runs perflab gc end to end on real programs; the subtests share
// one build of perflab.
func TestGC(t *testing.T) {
	bin := perflab(t)
	for _, tt := range []struct {
		name string
		test func(*testing.T, string)
	}{
		{"SummaryOfRealTrace", testGCSummaryOfRealTrace},
		{"LeakVerdicts", testGCLeakVerdicts},
		{"Processes", testGCProcesses},
		{"GoTest", testGCGoTest},
		{"GoRun", testGCGoRun},
		{"RunsProgram", testGCRunsProgram},
		{"Interrupt", testGCInterrupt},
		{"BadInput", testGCBadInput},
		{"HTML", testGCHTML},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, bin) })
	}
}

// traceOf runs the program with GODEBUG settings and returns the path of
// a file holding its standard error.
func traceOf(t *testing.T, bin string, env []string, settings ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trace.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin)
	cmd.Env = godebug.MergeGODEBUG(append(os.Environ(), env...), settings...)
	cmd.Stderr = f
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return path
}

// gcLineRE is the test's own reading of gctrace lines, independent of
// package godebug.
var gcLineRE = regexp.MustCompile(`^gc (\d+) @([\d.]+)s (\d+)%[^:]*: ([\d.]+)\+([\d.]+)\+([\d.]+) ms clock, .* ms cpu, (\d+)->(\d+)->(\d+) MB, (\d+) MB goal, .*?(\d+) P( \(forced\))?$`)

// expectedGC computes the figures perflab gc must print from the raw lines.
type expectedGC struct {
	gcs, forced, over100, cpuPercent int
	pauses                           []float64
	liveFirst, liveLast, liveMax     int64
}

func expectGC(t *testing.T, path string) expectedGC {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var e expectedGC
	for _, line := range strings.Split(string(data), "\n") {
		m := gcLineRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := func(i int) float64 { v, _ := strconv.ParseFloat(m[i], 64); return v }
		e.gcs++
		if m[12] != "" {
			e.forced++
		}
		pause := (f(4) + f(6)) / 1e3
		e.pauses = append(e.pauses, pause)
		if pause > 100e-6 {
			e.over100++
		}
		e.cpuPercent = int(f(3))
		live := int64(f(9)) << 20
		if e.gcs == 1 {
			e.liveFirst = live
		}
		e.liveLast, e.liveMax = live, max(e.liveMax, live)
	}
	slices.Sort(e.pauses)
	return e
}

// nearestRank is the p-th percentile as docs/godebug.md defines it.
func nearestRank(sorted []float64, p float64) float64 {
	return sorted[max(int(math.Ceil(p/100*float64(len(sorted)))), 1)-1]
}

func gcJSON(t *testing.T, out string) godebug.GCSummary {
	t.Helper()
	var s godebug.GCSummary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("perflab gc -json printed invalid JSON: %v\n%s", err, out)
	}
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9+1e-9*math.Abs(b) }

func testGCSummaryOfRealTrace(t *testing.T, bin string) {
	trace := traceOf(t, testprog.BuildSource(t, allocProg), nil, "gctrace=1")
	e := expectGC(t, trace)
	if e.gcs < 5 {
		t.Fatalf("the allocation-heavy program ran only %d GCs", e.gcs)
	}
	out, stderr, code := runPerflab(t, bin, "gc", "-json", trace)
	if code != 0 {
		t.Fatalf("perflab gc exited %d: %s", code, stderr)
	}
	s := gcJSON(t, out)
	if s.GCs != e.gcs || s.ForcedGCs != e.forced || s.PausesOver100us != e.over100 || s.GCCPUPercent != e.cpuPercent {
		t.Errorf("gcs %d forced %d over100 %d cpu %d%%; want %d %d %d %d%%",
			s.GCs, s.ForcedGCs, s.PausesOver100us, s.GCCPUPercent, e.gcs, e.forced, e.over100, e.cpuPercent)
	}
	want := godebug.Quantiles{P50: nearestRank(e.pauses, 50), P90: nearestRank(e.pauses, 90),
		P99: nearestRank(e.pauses, 99), Max: e.pauses[len(e.pauses)-1]}
	got := s.STWPause
	if !near(got.P50, want.P50) || !near(got.P90, want.P90) || !near(got.P99, want.P99) || !near(got.Max, want.Max) {
		t.Errorf("stw_pause_seconds %+v, want %+v", got, want)
	}
	if s.HeapLive.First != e.liveFirst || s.HeapLive.Last != e.liveLast || s.HeapLive.Max != e.liveMax {
		t.Errorf("heap_live_bytes %+v; want first %d last %d max %d", s.HeapLive, e.liveFirst, e.liveLast, e.liveMax)
	}
	if s.GCsPerSecond <= 0 || s.MarkSeconds <= 0 || s.GCCPUSeconds <= 0 {
		t.Errorf("rates and totals not computed: %+v", s)
	}

	// Standard input gives the same summary.
	in, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd := exec.Command(bin, "gc", "-json", "-")
	cmd.Stdin = in
	piped, err := cmd.Output()
	if err != nil {
		t.Fatalf("perflab gc -json -: %v", err)
	}
	if string(piped) != out {
		t.Errorf("summary of standard input differs from the file's:\n%s\n%s", piped, out)
	}

	// The text form shows the same figures.
	text, _, _ := runPerflab(t, bin, "gc", trace)
	for _, w := range []string{"GCs:            " + strconv.Itoa(e.gcs) + " over", strconv.Itoa(e.over100) + " over 100µs", "Verdict:"} {
		if !strings.Contains(text, w) {
			t.Errorf("text summary lacks %q:\n%s", w, text)
		}
	}
}

// testGCLeakVerdicts checks the verdicts on real programs: a leak over
// more than 5 s, the same leak over half a second (too short to tell from
// a program loading its data), and a steady heap after a warm-up.
func testGCLeakVerdicts(t *testing.T, bin string) {
	leak := testprog.BuildSource(t, leakProg)
	for _, tt := range []struct {
		name string
		prog string
		env  []string
		leak bool
		says string
	}{
		{"leak", leak, []string{"LEAK_SLEEP_MS=55"}, true, "possible leak"},
		{"short leak", leak, nil, false, "heap growing; too short to call it a leak"},
		{"steady", testprog.BuildSource(t, steadyProg), nil, false, "steady"},
	} {
		trace := traceOf(t, tt.prog, tt.env, "gctrace=1")
		out, stderr, code := runPerflab(t, bin, "gc", "-json", trace)
		if code != 0 {
			t.Fatalf("%s: perflab gc exited %d: %s", tt.name, code, stderr)
		}
		s := gcJSON(t, out)
		if s.LeakSuspected != tt.leak || !strings.HasPrefix(s.Verdict, tt.says) {
			data, _ := os.ReadFile(trace)
			t.Errorf("%s program: leak_suspected=%v, verdict %q; want %v, %q\ntrace:\n%s", tt.name, s.LeakSuspected, s.Verdict, tt.leak, tt.says, data)
		}
		if tt.prog == leak && s.LiveHeapTrend <= 0 {
			t.Errorf("%s: live_heap_trend_bytes_per_second = %v, want > 0", tt.name, s.LiveHeapTrend)
		}
	}
}

func testGCRunsProgram(t *testing.T, bin string) {
	prog := testprog.BuildSource(t, allocProg)
	report := filepath.Join(t.TempDir(), "gc.json")
	t.Setenv("GODEBUG", "madvdontneed=1")
	stdout, stderr, code := runPerflab(t, bin, "gc", "-json", "-o", report, "--", prog, "3")
	if code != 3 {
		t.Errorf("exit status %d, want the program's 3 (stderr %q)", code, stderr)
	}
	if !strings.Contains(stdout, "allocations:") || !strings.Contains(stderr, "alloc done") {
		t.Errorf("program output not passed through: stdout %q stderr %q", stdout, stderr)
	}
	if strings.Contains(stderr, "gc 1 @") {
		t.Errorf("trace lines passed through without -v: %q", stderr)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if s := gcJSON(t, string(data)); s.GCs < 5 || s.DurationSeconds < 0.7 {
		t.Errorf("run summary: %d GCs over %vs", s.GCs, s.DurationSeconds)
	}

	_, stderr, code = runPerflab(t, bin, "gc", "-v", "-o", os.DevNull, "--", prog)
	if code != 0 || !strings.Contains(stderr, "gc 1 @") {
		t.Errorf("-v: exit %d, trace lines not passed through: %q", code, stderr)
	}
}

// testGCInterrupt checks that Ctrl-C stops the program and still prints
// the summary, with the program's status.
func testGCInterrupt(t *testing.T, bin string) {
	prog := testprog.BuildSource(t, sleepProg)
	cmd := exec.Command(bin, "gc", "--", prog)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Interrupt once the program says it sleeps (it exits by itself after
	// 30 s), then read the rest: the pipe, unlike a shared buffer, is not
	// written by exec's copying goroutine while the test reads it.
	var out strings.Builder
	for sc := bufio.NewScanner(stdout); sc.Scan(); {
		fmt.Fprintln(&out, sc.Text())
		if sc.Text() == "sleeping" {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	io.Copy(&out, stdout)
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 128+int(syscall.SIGINT) {
		t.Errorf("exit: %v, want status %d", err, 128+int(syscall.SIGINT))
	}
	if !strings.Contains(out.String(), "GCs:") {
		t.Errorf("no summary after the interrupt:\n%s", out.String())
	}
}

func testGCBadInput(t *testing.T, bin string) {
	dir := t.TempDir()
	noTrace := filepath.Join(dir, "notrace.txt")
	os.WriteFile(noTrace, []byte("hello\nworld\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("gc 1 @0.1s 1%: 0.1+0.2+0.3 ms clock, 0.1+0.2/0.3/0.4+0.5 ms cpu, 4->4->1 MB, 5 MB goal, 2 P\n"+
		"gc 2 @0.2s 1%: 0.1+oops\n"), 0o644)
	tests := []struct {
		args      []string
		code      int
		stderrHas string
	}{
		{[]string{"gc", filepath.Join(dir, "missing.txt")}, 1, "missing.txt: no such file"},
		{[]string{"gc", noTrace}, 1, "notrace.txt: no gctrace lines"},
		{[]string{"gc", "a", "b"}, 2, "want one input file"},
		{[]string{"gc", "-v", noTrace}, 2, "-v applies only"},
		{[]string{"gc", "--"}, 2, "needs a program"},
		{[]string{"gc", "-bogus"}, 2, "-bogus"},
		{[]string{"gc", "--", filepath.Join(dir, "nosuchprogram")}, 1, "nosuchprogram"},
		{[]string{"gc", bad}, 0, "bad.txt:2: malformed gc trace line"},
	}
	for _, tt := range tests {
		stdout, stderr, code := runPerflab(t, bin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderrHas) {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit %d, stderr containing %q", tt.args, code, stderr, tt.code, tt.stderrHas)
		}
		if code == 1 && strings.Count(stderr, "\n") != 1 {
			t.Errorf("perflab %q: error is not one line: %q", tt.args, stderr)
		}
		if code == 0 && !strings.Contains(stdout, "Malformed:      1 trace lines") {
			t.Errorf("perflab %q: malformed line not reported:\n%s", tt.args, stdout)
		}
	}
}

// testGCHTML writes the chart page of a real leak trace and checks that it
// holds the verdict and three charts' data; browsertest's
// TestCommandPagesDraw checks in Chromium that such a page draws.
func testGCHTML(t *testing.T, bin string) {
	trace := traceOf(t, testprog.BuildSource(t, leakProg), nil, "gctrace=1")
	page := filepath.Join(t.TempDir(), "gc.html")
	if _, stderr, code := runPerflab(t, bin, "gc", "-html", page, "-o", os.DevNull, trace); code != 0 {
		t.Fatalf("perflab gc -html exited %d: %s", code, stderr)
	}
	checkChartPage(t, page, 3, "heap growing")
}

// checkChartPage fails t unless the HTML page at path has the text and
// the data of n charts.
func checkChartPage(t *testing.T, path string, n int, text string) {
	t.Helper()
	html, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), text) {
		t.Errorf("%s lacks %q", path, text)
	}
	if got := strings.Count(string(html), `"series":`); got != n {
		t.Errorf("%s holds %d charts' data, want %d", path, got, n)
	}
}

// testGCProcesses joins the traces of two real programs, as a log of two
// runs or of a go command and its program would, and checks that each is
// summarised on its own.
func testGCProcesses(t *testing.T, bin string) {
	first := traceOf(t, testprog.BuildSource(t, allocProg), nil, "gctrace=1")
	second := traceOf(t, testprog.BuildSource(t, steadyProg), nil, "gctrace=1")
	joined := joinFiles(t, first, second)
	out, stderr, code := runPerflab(t, bin, "gc", "-json", joined)
	if code != 0 {
		t.Fatalf("perflab gc exited %d: %s", code, stderr)
	}
	s := gcJSON(t, out)
	if s.Processes != 2 || s.Process != 2 || len(s.EarlierProcesses) != 1 {
		t.Fatalf("processes %d, process %d, %d earlier; want 2, 2, 1", s.Processes, s.Process, len(s.EarlierProcesses))
	}
	for _, tt := range []struct {
		s     *godebug.GCSummary
		trace string
	}{{s.EarlierProcesses[0], first}, {&s, second}} {
		e := expectGC(t, tt.trace)
		if tt.s.GCs != e.gcs || !near(tt.s.STWPause.Max, e.pauses[len(e.pauses)-1]) || tt.s.HeapLive.First != e.liveFirst {
			t.Errorf("process %d: %d GCs, max pause %v, first live %d; want %d, %v, %d", tt.s.Process,
				tt.s.GCs, tt.s.STWPause.Max, tt.s.HeapLive.First, e.gcs, e.pauses[len(e.pauses)-1], e.liveFirst)
		}
	}
	text, _, _ := runPerflab(t, bin, "gc", joined)
	if !strings.Contains(text, "2 processes in this trace; summarised separately") || !strings.Contains(text, "== Process 2 of 2") {
		t.Errorf("text summary does not say the trace holds 2 processes:\n%s", text)
	}
}

// testGCGoTest runs perflab gc -- go test on a real test package: only the
// test binary's GCs are summarised (it prints how many it ran), not the go
// command's, the compiler's or the linker's; the test flags reach it, and
// it runs in its package's directory, as go test runs it.
func testGCGoTest(t *testing.T, bin string) {
	report := filepath.Join(t.TempDir(), "gc.json")
	stdout, stderr, code := runPerflab(t, bin, "gc", "-json", "-o", report, "--",
		"go", "test", "-count=1", "-v", "-run", "TestAlloc", "./testdata/gcpkg")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	m := regexp.MustCompile(`gcpkg: numgc=(\d+)`).FindStringSubmatch(stdout)
	if m == nil || !strings.Contains(stdout, "--- PASS: TestAlloc") || strings.Contains(stdout, "TestNotRun") {
		t.Fatalf("the test binary did not run as asked:\n%s", stdout)
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	s := gcJSON(t, string(data))
	if numGC, _ := strconv.Atoi(m[1]); s.Processes != 1 || s.GCs != numGC {
		t.Errorf("summary of %d processes, %d GCs; the test binary alone ran %d GCs", s.Processes, s.GCs, numGC)
	}
	wd, _ := os.Getwd()
	if want := "gcpkg: dir=" + filepath.Join(wd, "testdata", "gcpkg") + "\n"; !strings.Contains(stdout, want) {
		t.Errorf("the test binary did not run in its package directory: want %q in\n%s", want, stdout)
	}

	_, stderr, code = runPerflab(t, bin, "gc", "--", "go", "test", "./testdata/...", "./...")
	if code != 2 || !strings.Contains(stderr, "one package") {
		t.Errorf("two packages: exit %d, stderr %q; want a usage error", code, stderr)
	}
}

// testGCGoRun runs perflab gc -- go run: the program, built first, is the
// only process traced, and gets its arguments.
func testGCGoRun(t *testing.T, bin string) {
	dir := t.TempDir()
	src := filepath.Join(dir, "alloc.go")
	os.WriteFile(src, []byte(allocProg), 0o644)
	stdout, stderr, code := runPerflab(t, bin, "gc", "-json", "-o", filepath.Join(dir, "gc.json"), "--", "go", "run", src, "4")
	if code != 4 || !strings.Contains(stdout, "allocations:") {
		t.Fatalf("exit %d, want the program's 4; stdout %q, stderr %q", code, stdout, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "gc.json"))
	if s := gcJSON(t, string(data)); s.Processes != 1 || s.GCs < 5 {
		t.Errorf("go run: %d processes, %d GCs; want the program's alone", s.Processes, s.GCs)
	}
}

// joinFiles writes the files at paths one after the other into a new
// file, as a log of several runs would hold them, and returns its path.
func joinFiles(t *testing.T, paths ...string) string {
	t.Helper()
	var all []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	joined := filepath.Join(t.TempDir(), "joined.txt")
	if err := os.WriteFile(joined, all, 0o644); err != nil {
		t.Fatal(err)
	}
	return joined
}
