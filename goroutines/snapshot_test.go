package goroutines_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/testprog"
)

// TestRealTwoDumps reads inputs that hold two dumps, as logs do: two
// runs of a program that panicked, and two SIGQUIT dumps. Each is grouped
// on its own and keeps its panic value; nothing of the second is merged
// into the first.
func TestRealTwoDumps(t *testing.T) {
	panics := append(runProg(t, []string{"GOTRACEBACK=all"}, "panic"), runProg(t, []string{"GOTRACEBACK=all"}, "generic")...)
	d := read(t, "panics", panics)
	if len(d.Snapshots) != 1 {
		t.Fatalf("two panics read as %d dumps", len(d.Snapshots)+1)
	}
	second := d.Snapshots[0]
	if d.Panic != "panic: Want stack trace" || second.Panic != "panic: generic 7" {
		t.Errorf("panics %q and %q, want each run's", d.Panic, second.Panic)
	}
	if u := d.Groups[0].UserFrame(); u < 0 || d.Groups[0].Frames[u].Func != "main.example" {
		t.Errorf("first dump's panicking group: %+v", d.Groups[0].Frames)
	}
	if u := second.Groups[0].UserFrame(); u < 0 || !strings.HasPrefix(second.Groups[0].Frames[u].Func, "main.generic") {
		t.Errorf("second dump's panicking group: %+v", second.Groups[0].Frames)
	}
	var text bytes.Buffer
	d.WriteText(&text, goroutines.TextOptions{})
	for _, want := range []string{"== Dump 1 of 2\npanic: Want stack trace\n", "== Dump 2 of 2\npanic: generic 7\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}

	quits := append(sigquitDump(t, 30), sigquitDump(t, 20)...)
	d = read(t, "sigquits", quits)
	if len(d.Snapshots) != 1 {
		t.Fatalf("two SIGQUIT dumps read as %d dumps", len(d.Snapshots)+1)
	}
	for i, want := range []int{30, 20} {
		sn := append([]*goroutines.Dump{d}, d.Snapshots...)[i]
		if g := findGroup(t, sn, "main.leakyWorker"); g.Count != want {
			t.Errorf("dump %d: %d workers, want %d", i+1, g.Count, want)
		}
	}
	var js bytes.Buffer
	if err := d.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Total     int `json:"total"`
		Snapshots []struct {
			Total int `json:"total"`
		} `json:"snapshots"`
	}
	if err := json.Unmarshal(js.Bytes(), &out); err != nil || len(out.Snapshots) != 1 || out.Total != d.Total || out.Snapshots[0].Total != d.Snapshots[0].Total {
		t.Errorf("JSON: %+v (%v)", out, err)
	}
}

// TestRealRace reads the reports of Go's race detector on a program built
// with -race (testdata/race.go.txt): the two accesses of each race and
// where their goroutines were created, grouped by the pair of locations.
// Such an input is a dump like any other, not "not a goroutine dump".
func TestRealRace(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/race.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module race\n\ngo 1.26\n"), 0o644)
	build := exec.Command("go", "build", "-race", "-o", "race", ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -race: %v\n%s", err, out)
	}
	var out bytes.Buffer
	run := exec.Command(filepath.Join(dir, "race"))
	run.Stdout, run.Stderr = &out, &out
	if err := run.Run(); err == nil || !strings.Contains(out.String(), "WARNING: DATA RACE") {
		t.Fatalf("the program reported no race (%v):\n%s", err, out.String())
	}
	line := func(marker string) int {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.HasSuffix(l, "// race: "+marker) {
				return i + 1
			}
		}
		t.Fatalf("no line marked %q", marker)
		return 0
	}
	d := read(t, "race", out.Bytes())
	if d.Total != 0 || len(d.Races) != 2 {
		t.Fatalf("%d goroutines, %d race groups, want 0 and 2:\n%s", d.Total, len(d.Races), out.String())
	}
	incr, main := d.Races[0], d.Races[1]
	a, p := incr.Example.Access, incr.Example.Previous
	if incr.Count != 2 || a.Op != "read" || p.Op != "write" || a.Where().Func != "main.incr" || a.Where().Line != line("incr") ||
		p.Where().Line != line("incr") || len(a.CreatedAt) == 0 || len(p.CreatedAt) == 0 {
		t.Errorf("the counter's race: %d reports, %+v against %+v", incr.Count, a, p)
	}
	created := map[int]bool{a.CreatedAt[0].Line: true, p.CreatedAt[0].Line: true}
	if !created[line("created A")] && !created[line("created A again")] || !created[line("created B")] {
		t.Errorf("the goroutines were created at lines %v", created)
	}
	a, p = main.Example.Access, main.Example.Previous
	if main.Count != 1 || a.Goroutine != 1 || a.CreatedAt != nil || a.Where().Line != line("main read") || p.Where().Func != "main.incr" {
		t.Errorf("main's race: %+v against %+v", a, p)
	}
	var text bytes.Buffer
	d.WriteText(&text, goroutines.TextOptions{})
	want := "2 data races: read at main.go:" + strconv.Itoa(line("incr")) + " (main.incr) against an earlier write at main.go:" + strconv.Itoa(line("incr")) + " (main.incr)"
	if !strings.Contains(text.String(), want) || !strings.Contains(text.String(), "3 data race reports at 2 location pairs") {
		t.Errorf("the text lacks %q:\n%s", want, text.String())
	}
	if n := len(regexp.MustCompile(`(?m)^    created at:$`).FindAllString(text.String(), -1)); n != 3 {
		t.Errorf("the text shows %d creators, want 3:\n%s", n, text.String())
	}
}

// TestNoFinalNewline reads whole dumps saved without their last end of
// line: nothing is cut, and no note says so.
func TestNoFinalNewline(t *testing.T) {
	for name, dump := range map[string][]byte{
		"panic":   runProg(t, []string{"GOTRACEBACK=all"}, "panic"),
		"stack":   runProg(t, nil, "stack"),
		"debug=1": []byte("goroutine profile: total 3\n3 @ 0x43d4ce 0x4a2b65\n#\t0x4a2b64\tmain.worker+0x24\t/src/main.go:20\n"),
	} {
		dump = bytes.TrimRight(dump, "\n")
		d := read(t, name, dump)
		for _, n := range d.Notes {
			if strings.Contains(n, "partial") || strings.Contains(n, "cut") {
				t.Errorf("%s: note %q", name, n)
			}
		}
		if n := d.Truncated(); n != 0 {
			t.Errorf("%s: %d goroutines marked cut short", name, n)
		}
	}
}

// TestLineOverflow keeps the text of a line number too large for an int,
// on a frame and on a creator, instead of dropping the frame or printing
// an empty location.
func TestLineOverflow(t *testing.T) {
	dump := "goroutine 7 [chan receive]:\nmain.worker(0x1)\n\t/src/app/worker.go:99999999999999999999 +0x2a\nmain.run()\n\t/src/app/main.go:12 +0x1d\n" +
		"created by main.main in goroutine 1\n\t/src/app/main.go:88888888888888888888 +0x44\n"
	d := read(t, "overflow", []byte(dump))
	g := d.Groups[0]
	if len(g.Frames) != 2 || g.Truncated != 0 || g.Frames[0].File != "/src/app/worker.go:99999999999999999999" ||
		g.CreatedBy == nil || g.CreatedBy.File != "/src/app/main.go:88888888888888888888" {
		t.Fatalf("frames %+v, creator %+v, truncated %d", g.Frames, g.CreatedBy, g.Truncated)
	}
	var text bytes.Buffer
	d.WriteText(&text, goroutines.TextOptions{})
	for _, want := range []string{"main.worker  /src/app/worker.go:99999999999999999999\n", "created by main.main at /src/app/main.go:88888888888888888888\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
}

// connServer serves net/http/pprof and a handler that leaves a goroutine
// blocked on each request.
const connServer = `package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
)

var block = make(chan int)

func main() {
	http.HandleFunc("/leak", func(w http.ResponseWriter, r *http.Request) {
		go func() { <-block }()
	})
	http.ListenAndServe(os.Args[1], nil)
}
`

// TestLeaksIgnoreConnections compares two debug=2 dumps of a real
// net/http server taken over HTTP, as perflab investigate takes them, the
// second after a client left its connection open: that connection's
// goroutines grew but are no leak; the goroutines a handler left blocked
// are.
func TestLeaksIgnoreConnections(t *testing.T) {
	addr := "127.0.0.1:" + testprog.FreePort(t)
	cmd := exec.Command(testprog.BuildSource(t, connServer), addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	fetch := func(c *http.Client, path string) []byte {
		t.Helper()
		var resp *http.Response
		var err error
		for try := 0; try < 100; try++ { // until the server listens
			if resp, err = c.Get("http://" + addr + path); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	base := read(t, "base", fetch(fresh, "/debug/pprof/goroutine?debug=2"))
	idle := &http.Client{Transport: &http.Transport{}} // its connection stays open
	defer idle.CloseIdleConnections()
	for range 3 {
		fetch(idle, "/leak")
	}
	fetch(fresh, "/leak")
	time.Sleep(100 * time.Millisecond) // the leaked goroutines block
	d := read(t, "end", fetch(fresh, "/debug/pprof/goroutine?debug=2"))
	d.Compare(base)
	conns := 0
	for _, g := range d.Groups {
		if g.Connection() && g.Count > g.BaseCount {
			conns++
		}
	}
	leaks := d.Leaks(1)
	if conns == 0 || len(leaks) != 1 || leaks[0].Grew != 4 || !strings.Contains(leaks[0].Text, "main.main.func1.1") {
		var b strings.Builder
		d.WriteText(&b, goroutines.TextOptions{})
		t.Errorf("%d connection groups grew; leaks %+v, want only the handler's 4 goroutines:\n%s", conns, leaks, b.String())
	}
}
