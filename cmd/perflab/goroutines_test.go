package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	rpprof "runtime/pprof"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// goroutinesProg builds the program package goroutines' tests run.
func goroutinesProg(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../goroutines/testdata/prog.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	return testprog.BuildSource(t, string(src))
}

// runCmd runs perflab in-process and returns stdout, stderr and the exit
// status main would return.
func runCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(stdin), &stdout, &stderr, args)
	code := exitCode(&stderr, err)
	return stdout.String(), stderr.String(), code
}

// parkedForTest blocks until ch closes: goroutines the tests find in
// their own dumps.
func parkedForTest(ch chan struct{}) { <-ch }

// pprofServer serves net/http/pprof on 127.0.0.1, refusing debug=2 when
// refuse2 is set, while 25 goroutines are parked in parkedForTest.
func pprofServer(t *testing.T, refuse2 bool) *httptest.Server {
	t.Helper()
	ch := make(chan struct{})
	for range 25 {
		go parkedForTest(ch)
	}
	t.Cleanup(func() { close(ch) })
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", func(w http.ResponseWriter, r *http.Request) {
		if refuse2 && r.URL.Query().Get("debug") == "2" {
			http.Error(w, "debug=2 is off here", http.StatusForbidden)
			return
		}
		pprof.Index(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	// Wait until they are parked: one not run yet would split their group.
	for deadline := time.Now().Add(10 * time.Second); parkedCount() < 25 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	return srv
}

// parkedCount counts the goroutines parked in parkedForTest.
func parkedCount() int {
	var dump strings.Builder
	rpprof.Lookup("goroutine").WriteTo(&dump, 2)
	n := 0
	for _, g := range strings.Split(dump.String(), "\n\n") {
		if strings.Contains(g, "[chan receive") && strings.Contains(g, ".parkedForTest(") {
			n++
		}
	}
	return n
}

// goroutinesJSON is the documented -json schema.
type goroutinesJSON struct {
	Total int `json:"total"`
	Panic *struct {
		Value     string `json:"value"`
		Goroutine int64  `json:"goroutine"`
	} `json:"panic"`
	Groups []struct {
		Count       int                    `json:"count"`
		BaseCount   *int                   `json:"base_count"`
		State       string                 `json:"state"`
		WaitMinutes struct{ Min, Max int } `json:"wait_minutes"`
		Labels      map[string]string      `json:"labels"`
		CreatedBy   *struct {
			Func, File string
			Line       int
		} `json:"created_by"`
		Frames []struct {
			Func, File string
			Line       int
		} `json:"frames"`
	} `json:"groups"`
}

func decodeGoroutines(t *testing.T, out string) goroutinesJSON {
	t.Helper()
	var v goroutinesJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return v
}

// TestGoroutinesURL fetches debug=2, debug=1 (when debug=2 is refused) and
// a binary profile from a real net/http/pprof server.
func TestGoroutinesURL(t *testing.T) {
	const fn = "github.com/perflab/perflab/cmd/perflab.parkedForTest"
	for _, tc := range []struct {
		name    string
		refuse2 bool
		path    string
		state   string
	}{
		{"debug=2", false, "/debug/pprof/goroutine", "chan receive"},
		{"fallback to debug=1", true, "/debug/pprof/goroutine", ""},
		{"host:port", false, "", "chan receive"},
		{"binary", false, "/debug/pprof/goroutine?debug=0", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := pprofServer(t, tc.refuse2)
			src := srv.URL + tc.path
			if tc.path == "" {
				src = strings.TrimPrefix(srv.URL, "http://")
			}
			stdout, stderr, code := runCmd(t, "", "goroutines", "-json", src)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			v := decodeGoroutines(t, stdout)
			found := false
			for _, g := range v.Groups {
				for _, f := range g.Frames {
					if f.Func == fn && g.Count >= 25 {
						found = true
						if g.State != tc.state || !strings.HasSuffix(f.File, "goroutines_test.go") || f.Line == 0 {
							t.Errorf("group %+v", g)
						}
					}
				}
			}
			if !found {
				t.Errorf("no group of 25 in %s: %s", fn, stdout)
			}
		})
	}
}

func TestGoroutinesProgram(t *testing.T) {
	bin := goroutinesProg(t)
	stdout, stderr, code := runCmd(t, "", "goroutines", "-args", "--", bin, "panic")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"panic: Want stack trace\n", "  > main.example(", "i int = ", "exit status 2"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("%q not in\n%s", want, stdout)
		}
	}
	_, stderr, code = runCmd(t, "", "goroutines", "--", bin, "nothing")
	if code != 1 || stderr != "perflab: "+bin+": exited with status 0 without printing a goroutine dump\n" {
		t.Errorf("exit %d, %q", code, stderr)
	}
}

// TestGoroutinesBase compares two real dumps of the same program.
func TestGoroutinesBase(t *testing.T) {
	bin := goroutinesProg(t)
	dir := t.TempDir()
	dump := func(name string, n string) string {
		out, _ := runCmdOutput(t, bin, "stackn", n)
		p := filepath.Join(dir, name)
		os.WriteFile(p, out, 0o644)
		return p
	}
	old, cur := dump("old", "5"), dump("new", "205")
	stdout, stderr, code := runCmd(t, "", "goroutines", "-base", old, cur)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "+200 goroutines in main.leakyWorker, blocked on chan receive, created by main.park at main.go:") ||
		!strings.Contains(stdout, "205 goroutines [chan receive] (+200 since base: 5)") {
		t.Errorf("output:\n%s", stdout)
	}
	stdout, _, _ = runCmd(t, "", "goroutines", "-json", "-base", old, cur)
	v := decodeGoroutines(t, stdout)
	if g := v.Groups[0]; g.Count != 205 || g.BaseCount == nil || *g.BaseCount != 5 || g.CreatedBy == nil || g.CreatedBy.Func != "main.park" {
		t.Errorf("first group %+v", g)
	}
}

// runCmdOutput runs a program and returns its stdout.
func runCmdOutput(t *testing.T, bin string, args ...string) ([]byte, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout = &out
	err := cmd.Run()
	return out.Bytes(), err
}

// TestGoroutinesJSONKeys checks that -json writes exactly the documented keys.
func TestGoroutinesJSONKeys(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "dump")
	os.WriteFile(dump, []byte("panic: x\n\ngoroutine 1 [running] {k: \"v\"}:\nmain.main()\n\t/a.go:1 +0x1\n\ngoroutine 2 [select, 2 minutes]:\nmain.f()\n\t/a.go:2\ncreated by main.main in goroutine 1\n\t/a.go:3 +0x1\n"), 0o644)
	stdout, stderr, code := runCmd(t, "", "goroutines", "-json", "-base", dump, dump)
	if code != 0 {
		t.Fatal(stderr)
	}
	var v map[string]any
	json.Unmarshal([]byte(stdout), &v)
	keys := func(m any) []string {
		var ks []string
		for k := range m.(map[string]any) {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	g := v["groups"].([]any)[0]
	for _, c := range []struct {
		got  []string
		want []string
	}{
		{keys(v), []string{"groups", "panic", "total"}},
		{keys(v["panic"]), []string{"goroutine", "value"}},
		{keys(g), []string{"base_count", "count", "frames", "labels", "state", "wait_minutes"}},
		{keys(v["groups"].([]any)[1]), []string{"base_count", "count", "created_by", "frames", "state", "wait_minutes"}},
		{keys(g.(map[string]any)["wait_minutes"]), []string{"max", "min"}},
		{keys(g.(map[string]any)["frames"].([]any)[0]), []string{"file", "func", "line"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("keys %v, want %v\n%s", c.got, c.want, stdout)
		}
	}
}

func TestGoroutinesErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	empty, text, junk := file("empty", ""), file("text", "hello\n"), file("junk", "\x00\x01\x02junk")
	long := filepath.Join(dir, "long")
	f, _ := os.Create(long)
	f.Truncate(100 << 20) // a single line of 100 MB of NULs: binary
	f.Close()
	longText := filepath.Join(dir, "longtext")
	os.WriteFile(longText, bytes.Repeat([]byte("a"), 3<<20), 0o644)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slow.Close()
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{empty}, 1, "perflab: " + empty + ": empty input\n"},
		{[]string{text}, 1, "perflab: " + text + ": not a goroutine dump: no goroutine header in 1 lines\n"},
		{[]string{junk}, 1, "perflab: " + junk + ": not a goroutine dump: binary data that does not decode as a goroutine profile either\n"},
		{[]string{long}, 1, "perflab: " + long + ": not a goroutine dump: binary data"},
		{[]string{longText}, 1, "perflab: " + longText + ": line 1: line too long for a goroutine dump (over 1048576 bytes)\n"},
		{[]string{filepath.Join(dir, "missing")}, 1, "perflab: " + filepath.Join(dir, "missing") + ": no such file, and not a URL\n"},
		{[]string{"-timeout", "300ms", slow.URL + "/debug/pprof/goroutine"}, 1, "timed out after 300ms (raise it with -timeout)\n"},
		{[]string{}, 2, "perflab goroutines: want a SOURCE, or -- PROGRAM\n"},
		{[]string{"-wait", "-1m", text}, 2, "-wait -1m0s: must not be negative"},
	} {
		stdout, stderr, code := runCmd(t, "", append([]string{"goroutines"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q", tc.args, code, stdout, stderr, tc.code, tc.msg)
		}
		if code == 1 && strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: not one line: %q", tc.args, stderr)
		}
	}
}

// TestGoroutinesLeakProfile reads a server built with the Go 1.26
// runtime's leak detector: perflab asks for /debug/pprof/goroutineleak
// besides the goroutines, and marks the 7 goroutines it lists as leaked for
// certain, and not the 3 that wait on a channel a global holds.
func TestGoroutinesLeakProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the standard library with an experiment")
	}
	src, err := os.ReadFile("testdata/leakserver.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module leakserver\n\ngo 1.26\n"), 0o644)
	build := exec.Command("go", "build", "-o", "leakserver", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOEXPERIMENT=goroutineleakprofile")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("this toolchain has no goroutineleakprofile experiment: %v\n%s", err, out)
	}
	srv := exec.Command(filepath.Join(dir, "leakserver"))
	out, _ := srv.StdoutPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	var u string
	if _, err := fmt.Fscanln(out, &u); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCmd(t, "", "goroutines", u)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"7 goroutines [chan receive, 7 leaked]",
		"3 goroutines [chan receive] ",
		fmt.Sprintf("7 goroutines in main.leakyWorker, blocked on chan receive, created by main.main at main.go:%d: leaked (reported by the runtime's leak detector)", lineOf(t, "testdata/leakserver.go.txt", "go leakyWorker()")),
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("%q not in\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "main.keptWorker, blocked") {
		t.Errorf("keptWorker reported:\n%s", stdout)
	}
}

// TestGoroutinesEscapes reads a dump whose panic message and a label hold
// terminal escape sequences: it is read (it was refused as "binary data"),
// and with -sanitize they are shown as visible escapes.
func TestGoroutinesEscapes(t *testing.T) {
	dump := filepath.Join(t.TempDir(), "escapes.txt")
	os.WriteFile(dump, []byte("panic: \x1b[2Jowned \x1b]52;c;ZXZpbA==\x07\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/app/main.go:12 +0x1d\n"), 0o644)
	var stdout, stderr bytes.Buffer
	if code := exitCode(&stderr, run(context.Background(), strings.NewReader(""), &stdout, &stderr, []string{"goroutines", "-sanitize", dump})); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if out := stdout.String(); strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `\x1b]52;c;`) {
		t.Errorf("-sanitize output:\n%s\nwant the escapes shown, none left raw", out)
	}
}
