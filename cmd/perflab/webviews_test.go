package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
)

// TestWebTrace serves the timeline of a trace of examples/tracefreq: the
// source is told a trace by its header, whatever its name.
func TestWebTrace(t *testing.T) {
	dir := t.TempDir()
	path := tracefreqTrace(t, dir, "findNumCPUTasks", 200)
	renamed := filepath.Join(dir, "profile.pb.gz") // the name does not matter
	if err := os.Rename(path, renamed); err != nil {
		t.Fatal(err)
	}
	base := startWeb(t, renamed)
	waitTraceRead(t, base)
	code, body := httpGet(t, base+"/ui/")
	if code != http.StatusOK || !strings.Contains(string(body), `<canvas id="timeline"`) {
		t.Fatalf("/ui/: %d\n%s", code, body)
	}
	code, body = httpGet(t, base+"/ui/timeline/tiles?width=300")
	var tiles struct {
		Columns int `json:"columns"`
		Procs   []struct{ Proc int }
		Spans   []struct{ Kind, Name string }
	}
	if code != http.StatusOK || json.Unmarshal(body, &tiles) != nil || tiles.Columns != 300 || len(tiles.Procs) == 0 {
		t.Fatalf("tiles: %d %s", code, body)
	}
	if !strings.Contains(string(body), `"name":"searchDocument"`) {
		t.Errorf("tiles name no searchDocument region: %s", body)
	}
	code, body = httpGet(t, base+"/ui/trace")
	if code != http.StatusOK || !strings.Contains(string(body), "Ps busy") {
		t.Errorf("summary: %d\n%s", code, body)
	}
}

// waitTraceRead waits until the trace server at base has read the whole
// trace and its summary, which it does in the background once it serves:
// until then its pages show what is read and ask again.
func waitTraceRead(t *testing.T, base string) {
	t.Helper()
	var ans struct {
		Progress       exectrace.Progress `json:"progress"`
		SummaryPending bool               `json:"summary_pending"`
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		code, body := httpGet(t, base+"/ui/timeline/tiles?width=10")
		if code != http.StatusOK || json.Unmarshal(body, &ans) != nil {
			t.Fatalf("tiles: %d %s", code, body)
		}
		if ans.Progress.Done() && !ans.SummaryPending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the trace is not read after a minute: %+v, summary pending %v", ans.Progress, ans.SummaryPending)
		}
	}
}

// TestWebDump serves the groups of a real dump, with -base.
func TestWebDump(t *testing.T) {
	bin := goroutinesProg(t)
	dir := t.TempDir()
	dump := func(name string, n string) string {
		out, _ := runCmdOutput(t, bin, "stackn", n)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, cur := dump("old.txt", "5"), dump("new.txt", "205")
	base := startWeb(t, "-base", old, cur)
	code, body := httpGet(t, base+"/ui/")
	page := string(body)
	if code != http.StatusOK || !strings.Contains(page, "200 goroutines in main.leakyWorker, blocked on chan receive, created by main.park") {
		t.Fatalf("/ui/: %d\n%s", code, page)
	}
	if !strings.Contains(page, `<span class="count">205</span>`) {
		t.Errorf("no group of 205:\n%s", page)
	}
}

func TestWebSniff(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data string
		want webSource
	}{
		"trace":   {"go 1.23 trace\x00\x00\x00\x01\x02", webTrace},
		"panic":   {"panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/x/main.go:3 +0x1d\n", webDump},
		"debug1":  {"goroutine profile: total 3\n2 @ 0x1 0x2\n", webDump},
		"sigquit": {"SIGQUIT: quit\nPC=0x1 m=0 sigcode=0\n\ngoroutine 7 gp=0xc000 m=nil [select]:\n", webDump},
		"gzip":    {"\x1f\x8b\x08goroutine 1 [running]:\n", webProfile},
		"text":    {"just some text\n", webProfile},
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := sniffWeb([]string{p}); got != c.want {
			t.Errorf("%s: %d, want %d", name, got, c.want)
		}
	}
	if got := sniffWeb([]string{filepath.Join(dir, "panic"), filepath.Join(dir, "trace")}); got != webProfile {
		t.Errorf("two sources: %d, want a profile", got)
	}
}

func TestWebTraceBase(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.trace")
	if err := os.WriteFile(p, []byte("go 1.23 trace\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCmd(t, "", "web", "-no_browser", "-base", p, p)
	if code == 0 || !strings.Contains(stderr, "-base") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// TestWebTraceBadInput: a broken or too old trace gives one line naming
// the file and the cause, exit status 1, before anything is served.
func TestWebTraceBadInput(t *testing.T) {
	dir := t.TempDir()
	for data, want := range map[string]string{
		"go 1.23 trace\x00\x00\x00\x01\x02\x03junk": "trace broken in its first generation",
		"go 1.19 trace\x00\x00\x00\x01\x02\x03junk": "Go 1.22 or later",
	} {
		p := filepath.Join(dir, "t.trace")
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := runCmd(t, "", "web", "-no_browser", p)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "perflab: "+p+": ") || !strings.Contains(stderr, want) || strings.Contains(stderr, "Serving") {
			t.Errorf("exit %d: %q, want one line with %q", code, stderr, want)
		}
	}
}
