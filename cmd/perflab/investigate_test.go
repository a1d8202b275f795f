package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// TestRunBadInput: each bad command line or program is one line naming
// the cause, exit 2 for usage and 1 for failures, and nothing is left
// running (the program below would hold its port).
func TestRunBadInput(t *testing.T) {
	bin := perflab(t)
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	taken := "http://" + ln.Addr().String() + "/"
	free := testprog.ClosedPortURL(t)
	notExec := filepath.Join(dir, "notexec")
	os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644)
	out := filepath.Join(dir, "out")
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"investigate", "-nosuch", "-url", free, "--", "true"}, 2, "perflab investigate: flag provided but not defined: -nosuch"},
		{[]string{"investigate", "-url", "http://192.0.2.1/", "-o", out, "--", "true"}, 2, "host 192.0.2.1 is not loopback; add -allow-remote"},
		{[]string{"investigate", "-url", free, "-pprof", "http://example.com/debug/pprof/", "-o", out, "--", "true"}, 2, "-pprof"},
		{[]string{"investigate", "-url", free, "-o", out}, 2, "no program"},
		{[]string{"investigate", "-o", out, "--", "true"}, 2, "-url: give at least one URL"},
		{[]string{"investigate", "-c", "0", "-url", free, "-o", out, "--", "true"}, 2, "-c must be at least 1"},
		{[]string{"investigate", "-url", taken, "-o", out, "--", "true"}, 1, "already taken by another program"},
		{[]string{"investigate", "-url", free, "-o", out, "--", notExec}, 1, "permission denied"},
		{[]string{"investigate", "-url", free, "-o", out, "--", filepath.Join(dir, "missing")}, 1, "no such file"},
	} {
		_, stderr, code := runPerflab(t, bin, tt.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != tt.code || !strings.Contains(first, tt.want) {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit %d and a first line with %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
}

// TestRunEarlyExit: a program that exits at once ends the run with one
// line naming the cause; the report and the program's log are kept.
func TestRunEarlyExit(t *testing.T) {
	bin := perflab(t)
	prog := testprog.BuildSource(t, "package main\n\nimport \"os\"\n\nfunc main() { println(\"cannot bind\"); os.Exit(4) }\n")
	out := filepath.Join(t.TempDir(), "out")
	port := strconv.Itoa(freeTCPPort(t))
	start := time.Now()
	stdout, stderr, code := runPerflab(t, bin, "investigate", "-url", "http://127.0.0.1:"+port+"/", "-o", out, "--", prog)
	if code != 1 || !strings.Contains(stderr, "exited with status 4 before") || strings.Count(stderr, "perflab: ") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "Problems:") || time.Since(start) > 20*time.Second {
		t.Errorf("no report on stdout, or slow (%v):\n%s", time.Since(start), stdout)
	}
	log, _ := os.ReadFile(filepath.Join(out, "program.log"))
	if !strings.Contains(string(log), "cannot bind") {
		t.Errorf("program.log: %q", log)
	}
}

func freeTCPPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// failServer serves net/http/pprof, 404 on /missing and 500 on /boom, on
// the port given as its argument.
const failServer = `package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
)

func main() {
	http.HandleFunc("/missing", http.NotFound)
	http.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	http.ListenAndServe("127.0.0.1:"+os.Args[1], nil)
}
`

// TestRunFailOnErrorsCountsAsLoad: perflab investigate's -fail-on-errors counts
// failures as perflab load's does (loadgen.FailureLimit): a 404 is an
// answer, a 500 a failure, and the message is load's. About 5 s.
func TestRunFailOnErrorsCountsAsLoad(t *testing.T) {
	bin := perflab(t)
	prog := testprog.BuildSource(t, failServer)
	mux := http.NewServeMux() // the same answers, for perflab load
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/boom", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	same := httptest.NewServer(mux)
	defer same.Close()
	for _, tt := range []struct {
		path string
		code int
		want string
	}{
		{"/missing", 0, ""},
		{"/boom", 1, "perflab: investigate: 100% of the 40 requests to http://127.0.0.1:PORT/boom failed (40 with a 5xx status), more than -fail-on-errors 10%"},
	} {
		port := strconv.Itoa(freeTCPPort(t))
		url := "http://127.0.0.1:" + port + tt.path
		want := strings.ReplaceAll(tt.want, "PORT", port)
		out := filepath.Join(t.TempDir(), "out")
		_, stderr, code := runPerflab(t, bin, "investigate", "-n", "40", "-c", "2", "-warmup", "-1s", "-trace", "0", "-fail-on-errors", "10%",
			"-url", url, "-o", out, "--", prog, port)
		if code != tt.code || !strings.Contains(stderr, want) {
			t.Errorf("investigate -fail-on-errors 10%% -url %s: exit %d, stderr %q; want exit %d and %q", url, code, stderr, tt.code, want)
		}
		if _, lerr, lcode := runPerflab(t, bin, "load", "-n", "40", "-c", "2", "-fail-on-errors", "10%", same.URL+tt.path); lcode != code {
			t.Errorf("load exits %d (%q) where investigate exits %d on %s", lcode, lerr, code, tt.path)
		}
	}
}
