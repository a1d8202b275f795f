package scrape

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// targetProgram is a running testdata/target: its net/http/pprof and
// collect server addresses.
type targetProgram struct {
	pprof, collect string
}

// binDir holds the binaries the tests build once for all of them.
var binDir string

func TestMain(m *testing.M) {
	var err error
	if binDir, err = os.MkdirTemp("", "scrape-test"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(binDir)
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildErr  error
)

// targetBinary builds testdata/target once for every test.
func targetBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(binDir, "target")
	buildOnce.Do(func() {
		out, err := exec.Command(testprog.Oracle(t, "go"), "build", "-o", bin, "./testdata/target").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./testdata/target: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

// startTarget starts testdata/target with collect's token, and stops it
// when the test ends.
func startTarget(t *testing.T, token string) targetProgram {
	t.Helper()
	cmd := exec.Command(targetBinary(t))
	cmd.Env = append(os.Environ(), "TOKEN="+token)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	var tp targetProgram
	sc := bufio.NewScanner(stdout)
	for tp.pprof == "" || tp.collect == "" {
		if !sc.Scan() {
			t.Fatalf("target program ended before printing its addresses: %v", sc.Err())
		}
		if a, ok := strings.CutPrefix(sc.Text(), "pprof "); ok {
			tp.pprof = a
		}
		if a, ok := strings.CutPrefix(sc.Text(), "collect "); ok {
			tp.collect = a
		}
	}
	go io.Copy(io.Discard, stdout)
	return tp
}

// get fetches u and fails the test unless it answers 200.
func get(t *testing.T, u string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", u, resp.Status)
	}
}

// runScraper runs a Scraper of cfg into a new Reference store, through a
// Recorder, until the test ends.
func runScraper(t *testing.T, cfg Config, opts Options) (*Scraper, *storetest.Recorder) {
	t.Helper()
	st := storetest.NewRecorder(storetest.NewReference(store.Limits{}))
	s := New(st, cfg, opts)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.Run(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return s, st
}

// waitFor polls cond every 20 ms until it holds, failing the test with
// what after limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after %v: %s", limit, what)
		}
	}
}

// health returns the health of the target at instance.
func health(s *Scraper, instance string) Health {
	for _, h := range s.Targets() {
		if h.Instance == instance {
			return h
		}
	}
	return Health{}
}

// job returns a job of kinds scraping targets every second.
func job(t *testing.T, name string, kinds []string, targets ...string) Job {
	t.Helper()
	ks, err := kindsOf(kinds)
	if err != nil {
		t.Fatal(err)
	}
	return Job{Name: name, Interval: time.Second, Timeout: time.Second, Kinds: ks,
		Static: []TargetGroup{{Targets: targets, Labels: map[string]string{"env": "test"}}}, RefreshInterval: time.Minute}.withDefaults()
}

// kindsOf is kinds, for tests.
func kindsOf(names []string) ([]store.Kind, error) { return kinds(names) }

// ofKind returns the stored profiles of series kind name.
func ofKind(st *storetest.Recorder, name string) []store.Profile {
	var out []store.Profile
	for _, p := range st.Written() {
		if p.Labels.Get(store.LabelName) == name {
			out = append(out, p)
		}
	}
	return out
}
