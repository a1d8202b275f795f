package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
	rpt "github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// lockedBuffer is a bytes.Buffer safe for a server goroutine and a test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var servingRx = regexp.MustCompile(`Serving web UI on (http://127\.0\.0\.1:\d+)\n`)

// startWeb runs "perflab web -no_browser ARGS" in process and returns
// its base URL once it serves; the server stops when the test ends.
func startWeb(t *testing.T, args ...string) string {
	t.Helper()
	u, _ := startWebStderr(t, args...)
	return u
}

// startWebStderr is startWeb that also returns what perflab web writes
// on its standard error.
func startWebStderr(t *testing.T, args ...string) (string, *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, strings.NewReader(""), io.Discard, &stderr, append([]string{"web", "-no_browser"}, args...))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("perflab web: %v", err)
		}
	})
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := servingRx.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], &stderr
		}
		select {
		case err := <-done:
			t.Fatalf("perflab web exited: %v\n%s", err, stderr.String())
		default:
		}
	}
	t.Fatalf("perflab web did not serve:\n%s", stderr.String())
	return "", nil
}

// smallProfile writes internal/profgen's Small profile to a file.
func smallProfile(t *testing.T) string {
	t.Helper()
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "cpu.pb.gz")
	reporttest.WriteProfile(t, p, f)
	return f
}

// flagsToURL turns report flags into the URL parameters the web UI keeps
// them in, through report's settings table.
func flagsToURL(t *testing.T, flags []string) string {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o := rpt.DefaultOptions()
	resolve := settings.RegisterFlags(fs, &o)
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	if err := resolve(io.Discard); err != nil {
		t.Fatal(err)
	}
	q := url.Values{}
	settings.EncodeURL(&o, q)
	return q.Encode()
}

func httpGet(t *testing.T, u string) (int, []byte) {
	t.Helper()
	code, body := testprog.Get(t, u)
	return code, []byte(body)
}

// TestWebTopMatchesTop checks that /ui/top shows the rows "perflab top"
// prints for the same settings, given as flags to top and as pprof's URL
// parameters to the server.
func TestWebTopMatchesTop(t *testing.T) {
	prof := smallProfile(t)
	base := startWeb(t, prof)
	rowRx := regexp.MustCompile(`<td class="fn" data-name="([^"]*)">`)
	for _, flags := range [][]string{
		nil,
		{"-cum", "-nodecount=15"},
		{"-focus=Compute", "-ignore=Render"},
		{"-sample_index=samples", "-files"},
		{"-tagfocus=handler=/api", "-nodecount=5"},
		{"-tagignore=tenant=t00"},
		{"-show_from=catalog", "-hide=runtime"},
	} {
		args := append(append([]string{"top", "-json"}, flags...), prof)
		var want bytes.Buffer
		if err := run(context.Background(), strings.NewReader(""), &want, io.Discard, args); err != nil {
			t.Fatalf("perflab %v: %v", args, err)
		}
		q := flagsToURL(t, flags)
		code, got := httpGet(t, base+"/ui/api/top?"+q)
		if code != 200 || !jsonEqual(t, got, want.Bytes()) {
			t.Errorf("/ui/api/top?%s (status %d) differs from perflab top -json %v", q, code, flags)
		}
		var rep rpt.JSONReport
		json.Unmarshal(want.Bytes(), &rep)
		code, page := httpGet(t, base+"/ui/top?"+q)
		rows := rowRx.FindAllSubmatch(page, -1)
		if code != 200 || len(rows) != len(rep.Nodes) {
			t.Errorf("/ui/top?%s: status %d, %d rows; perflab top has %d", q, code, len(rows), len(rep.Nodes))
			continue
		}
		for i, r := range rows {
			if string(r[1]) != rep.Nodes[i].Name {
				t.Errorf("/ui/top?%s row %d: %s, perflab top: %s", q, i, r[1], rep.Nodes[i].Name)
				break
			}
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}

// TestWebBadSource checks that a source that cannot be loaded fails as
// it does for top, before anything is served.
func TestWebBadSource(t *testing.T) {
	dir := t.TempDir()
	notProfile := filepath.Join(dir, "notes.txt")
	os.WriteFile(notProfile, []byte("hello, not a profile\n"), 0o644)
	for _, src := range []string{notProfile, filepath.Join(dir, "missing.pb.gz")} {
		var topErr, webErr bytes.Buffer
		topCode := exitCode(&topErr, run(context.Background(), strings.NewReader(""), io.Discard, &topErr, []string{"top", src}))
		webCode := exitCode(&webErr, run(context.Background(), strings.NewReader(""), io.Discard, &webErr, []string{"web", "-no_browser", src}))
		if webCode != 1 || topCode != 1 || webErr.String() != topErr.String() {
			t.Errorf("perflab web %s: exit %d, %q; perflab top: exit %d, %q", src, webCode, webErr.String(), topCode, topErr.String())
		}
	}
	var stderr bytes.Buffer
	if code := exitCode(&stderr, run(context.Background(), strings.NewReader(""), io.Discard, &stderr, []string{"web", "-http=nonsense", notProfile})); code != 2 {
		t.Errorf("-http=nonsense: exit %d, %s", code, stderr.String())
	}
}

// TestWebInitialFlags checks that report flags become the initial URL.
func TestWebInitialFlags(t *testing.T) {
	base := startWeb(t, "-focus=Compute", "-cum", smallProfile(t))
	resp, err := http.Get(base + "/ui/top")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Request.URL.RawQuery; got != "f=Compute&sort=cum" {
		t.Errorf("/ui/top redirected to ?%s, want ?f=Compute&sort=cum", got)
	}
}
