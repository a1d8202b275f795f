package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
)

// tracefreqTrace writes a trace of examples/tracefreq's variant searching
// n documents into dir, with env added to its environment, and returns
// its path.
func tracefreqTrace(t *testing.T, dir, variant string, n int, env ...string) string {
	t.Helper()
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	out := filepath.Join(dir, variant+".trace")
	cmd := exec.Command(bin, "-variant", variant, "-docs", itoa(n), "-trace", out)
	cmd.Env = append(os.Environ(), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tracefreq: %v\n%s", err, b)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTracePprofMatchesGoToolTrace: perflab top reports perflab's -pprof
// profiles exactly as it reports go tool trace -pprof's, for every kind.
func TestTracePprofMatchesGoToolTrace(t *testing.T) {
	gobin := testprog.Oracle(t, "go")
	dir := t.TempDir()
	tr := tracefreqTrace(t, dir, "findNumCPUTasks", 400)
	bin := perflab(t)
	for _, kind := range []string{"net", "sync", "syscall", "sched"} {
		ours := filepath.Join(dir, "ours."+kind)
		if _, stderr, code := runPerflab(t, bin, "trace", "-pprof="+kind, "-o", ours, tr); code != 0 {
			t.Fatalf("perflab trace -pprof=%s: exit %d: %s", kind, code, stderr)
		}
		theirs, err := exec.Command(gobin, "tool", "trace", "-pprof="+kind, tr).Output()
		if err != nil {
			t.Fatalf("go tool trace -pprof=%s: %v", kind, err)
		}
		oracle := filepath.Join(dir, "theirs."+kind)
		if err := os.WriteFile(oracle, theirs, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, report := range [][]string{{"top"}, {"top", "-cum"}} {
			want, _, _ := runPerflab(t, bin, append(report, oracle)...)
			got, stderr, code := runPerflab(t, bin, append(report, ours)...)
			if code != 0 || got != want {
				t.Errorf("-pprof=%s, perflab %v: ours differs from go tool trace's (exit %d, %s)\nours:\n%s\ntheirs:\n%s", kind, report, code, stderr, got, want)
			}
		}
	}
}

// traceJSONKeys is the -json schema of docs/trace.md.
var traceJSONKeys = map[string][]string{
	"":              {"duration_seconds", "gc", "gomaxprocs", "goroutines_created", "goroutines_max", "lacks", "mmu", "procs_busy_avg", "regions", "state_seconds", "tasks", "verdicts"},
	"state_seconds": {"chan", "gc_assist", "net", "runnable", "running", "select", "sleep", "sync", "syscall"},
	"gc":            {"count", "stw_max_seconds", "stw_total_seconds"},
	"mmu":           {"100ms", "10ms", "1ms"},
	"tasks":         {"count", "max_seconds", "name", "p50_seconds", "p90_seconds", "p99_seconds"},
}

func keysOf(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func TestTraceJSONHasExactlyTheDocumentedKeys(t *testing.T) {
	dir := t.TempDir()
	tr := tracefreqTrace(t, dir, "findNumCPUTasks", 100)
	out := runInProcess(t, "trace", "-json", tr)
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	check := func(name string, got map[string]any) {
		if want := traceJSONKeys[name]; !slices.Equal(keysOf(got), want) {
			t.Errorf("keys of %q: %v, want %v", name, keysOf(got), want)
		}
	}
	check("", m)
	check("state_seconds", m["state_seconds"].(map[string]any))
	check("gc", m["gc"].(map[string]any))
	check("mmu", m["mmu"].(map[string]any))
	for _, list := range []string{"tasks", "regions"} {
		items := m[list].([]any)
		if len(items) == 0 {
			t.Fatalf("no %s", list)
		}
		for _, it := range items {
			check("tasks", it.(map[string]any))
		}
	}
	var docs, gomaxprocs float64
	for _, r := range m["regions"].([]any) {
		if r := r.(map[string]any); r["name"] == "searchDocument" {
			docs = r["count"].(float64)
		}
	}
	gomaxprocs = m["gomaxprocs"].(float64)
	if docs != 100 || gomaxprocs < 1 || m["procs_busy_avg"].(float64) > gomaxprocs {
		t.Errorf("searchDocument regions %v (want 100), gomaxprocs %v, procs_busy_avg %v", docs, gomaxprocs, m["procs_busy_avg"])
	}
}

func TestTraceBadInput(t *testing.T) {
	dir := t.TempDir()
	// A generation every 50 ms instead of every second, so that the trace
	// has several to cut one off, however fast the machine.
	tr := tracefreqTrace(t, dir, "find", 9000, "GODEBUG=traceadvanceperiod=50000000")
	data, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	random := bytes.Repeat([]byte{0x13, 0x99, 0x42, 0x07}, 1000)
	cpu := write("cpu.pprof", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff\x01\x00\x00\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00"))
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer hang.Close()
	bin := perflab(t)
	for _, tc := range []struct {
		name, source string
		args         []string
		want         string
	}{
		{"random bytes", write("random.trace", random), nil, "not an execution trace"},
		{"CPU profile", cpu, nil, "probably a pprof profile"},
		{"Go 1.21", write("old.trace", append([]byte("go 1.21 trace\x00\x00\x00"), data[16:]...)), nil, "Go 1.22 or later"},
		{"missing", filepath.Join(dir, "nope.trace"), nil, "no such file"},
		{"URL timeout", hang.URL + "/debug/pprof/trace", []string{"-timeout", "1s"}, "timed out"},
	} {
		stdout, stderr, code := runPerflab(t, bin, append(append([]string{"trace"}, tc.args...), tc.source)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one line with %q", tc.name, code, stdout, stderr, tc.want)
		}
		if tc.name != "URL timeout" && !strings.Contains(stderr, tc.source) {
			t.Errorf("%s: message does not name the input: %q", tc.name, stderr)
		}
	}
	// A truncated trace: the summary of the complete generations, a
	// warning saying how much was read, exit 0.
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil || ix.Generations() < 2 {
		t.Fatalf("%v, %d generations; want 2 to cut one off", err, ix.Generations())
	}
	off, end := ix.GenerationBytes(1)
	cut := write("cut.trace", data[:off+(end-off)/2])
	stdout, stderr, code := runPerflab(t, bin, "trace", cut)
	if code != 0 || !strings.Contains(stdout, "GOMAXPROCS") || !strings.Contains(stderr, "truncated") || !strings.Contains(stderr, cut) {
		t.Errorf("truncated trace: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

func TestTraceFromURL(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(tracefreqTrace(t, dir, "findNumCPUTasks", 50))
	if err != nil {
		t.Fatal(err)
	}
	srv, lastQuery := testprog.RecordingServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	}))
	out := string(runInProcess(t, "trace", "-seconds", "2", srv.URL+"/debug/pprof/trace"))
	if !strings.Contains(out, "searchDocument") || !strings.HasSuffix(lastQuery(), "?seconds=2") {
		t.Errorf("query %q, summary:\n%s", lastQuery(), out)
	}
}

func TestTraceBaseHTMLPerfetto(t *testing.T) {
	dir := t.TempDir()
	old := tracefreqTrace(t, dir, "find", 200)
	new := tracefreqTrace(t, dir, "findNumCPUTasks", 200)
	html, pf, tl := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.perfetto"), filepath.Join(dir, "tl.html")
	out := string(runInProcess(t, "trace", "-base", old, "-html", html, "-perfetto", pf, "-timeline", tl, new))
	for _, want := range []string{"procs busy", "region searchDocument count", "new"} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
	page, err := os.ReadFile(html)
	if err != nil || !bytes.Contains(page, []byte("Busy Ps")) || !bytes.Contains(page, []byte("Goroutines")) || !bytes.Contains(page, []byte("Heap")) {
		t.Errorf("HTML report: %v, %d bytes", err, len(page))
	}
	if st, err := os.Stat(pf); err != nil || st.Size() == 0 {
		t.Errorf("perfetto file: %v", err)
	}
	if page, err := os.ReadFile(tl); err != nil || !bytes.Contains(page, []byte("perflabTimeline.render")) {
		t.Errorf("timeline page: %v, %d bytes", err, len(page))
	}
}

func TestTraceUsage(t *testing.T) {
	bin := perflab(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "want one trace"},
		{[]string{"trace", "a", "b"}, "want one trace"},
		{[]string{"trace", "-pprof=cpu", "x"}, "unknown profile"},
		{[]string{"trace", "-pprof=sync", "-json", "x"}, "does not go with"},
		{[]string{"trace", "--"}, "needs a program"},
	} {
		_, stderr, code := runPerflab(t, bin, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestDemoTrace tells the tracing story on fewer documents: every variant
// is traced, find keeps about one P busy, and the traces are kept.
func TestDemoTrace(t *testing.T) {
	dir := t.TempDir()
	out := string(runInProcess(t, "demo", "-docs", "1000", "-o", dir, "trace"))
	for _, want := range []string{"== 1. find", "== 4. findNumCPUTasks", "region searchDocument: 1000", "What the traces say", "one goroutine at a time"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo trace output lacks %q:\n%s", want, out)
		}
	}
	for _, v := range []string{"find", "findConcurrent", "findNumCPU", "findNumCPUTasks"} {
		if _, err := os.Stat(filepath.Join(dir, v+".trace")); err != nil {
			t.Error(err)
		}
	}
}

// TestTraceRunsProgram: with --, the program (tracefreq, which calls
// collect.Start when -trace is empty) writes a trace; perflab summarises
// it and exits with the program's status.
func TestTraceRunsProgram(t *testing.T) {
	prog := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	bin := perflab(t)
	stdout, stderr, code := runPerflab(t, bin, "trace", "--", prog, "-trace=", "-docs=20", "-variant=findNumCPUTasks")
	if code != 0 || !strings.Contains(stdout, "searchDocument") || !strings.Contains(stdout, "found president 140 times") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	stdout, stderr, code = runPerflab(t, bin, "trace", "--", prog, "-trace=", "-variant=nosuch")
	if code != 1 || !strings.Contains(stderr, "wrote no trace (exit status 2)") {
		t.Errorf("failing program: exit %d (want 1), stderr %q, stdout %q", code, stderr, stdout)
	}
}
