//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/servertest"
	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// A serverProcess is a perflab server the test started.
type serverProcess struct {
	cmd    *exec.Cmd
	url    string
	stderr *lockedBuffer
	done   chan error
}

var serverRx = regexp.MustCompile(`^Serving perflab server on (http://127\.0\.0\.1:\d+)$`)

// startServer starts perflab server on a free loopback port with the
// store dir, and returns once it serves. The test kills it if it is still
// running at the end.
func startServer(t *testing.T, bin, dir string) *serverProcess {
	t.Helper()
	cmd := exec.Command(bin, "server", "-store", dir, "-http", "127.0.0.1:0")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &serverProcess{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-s.done
	})
	r := bufio.NewReader(pipe)
	line, err := r.ReadString('\n')
	m := serverRx.FindStringSubmatch(strings.TrimSpace(line))
	if err != nil || m == nil {
		rest, _ := io.ReadAll(r)
		t.Fatalf("perflab server's first line: %q, %v; then %s", line, err, rest)
	}
	s.url = m[1]
	go func() {
		io.Copy(s.stderr, r)
		s.done <- cmd.Wait()
	}()
	return s
}

// push pushes one profile through the Push API.
func push(ctx context.Context, url string, p store.Profile) error {
	return servertest.Push(ctx, url, p)
}

// queryProfile writes the profile of service api's CPU profiles from
// from to until with perflab query against the store spec, and returns
// its bytes.
func queryProfile(t *testing.T, bin, spec string, from, until time.Time) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "merged.pb.gz")
	stdout, stderr, code := runPerflab(t, bin, "query", "-store", spec, "-from", rfc3339(from), "-until", rfc3339(until), "-o", out, `{service_name="api"}`)
	if code != 0 {
		t.Fatalf("perflab query -store %s: exit status %d\n%s%s", spec, code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServerFlushesOnSIGTERM pushes profiles to a real perflab server with
// a directory store, writes a selection's profile with perflab query
// against the server's URL, stops the server with SIGTERM (exit status 0),
// and writes the same selection with perflab query against the directory:
// the same bytes, which are also those of the Reference store's merge of
// the same profiles.
func TestServerFlushesOnSIGTERM(t *testing.T) {
	bin := perflab(t)
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServer(t, bin, dir)
	fixture := storetest.Fixture()
	ctx := context.Background()
	for _, p := range fixture {
		if err := push(ctx, srv.url, p); err != nil {
			t.Fatalf("push: %v", err)
		}
	}
	from, until := storetest.Epoch, storetest.Epoch.Add(3*time.Hour)
	served := queryProfile(t, bin, srv.url, from, until)

	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-srv.done:
		if err != nil {
			t.Fatalf("perflab server after SIGTERM: %v\n%s", err, srv.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("perflab server did not stop within 30 s of SIGTERM\n%s", srv.stderr)
	}
	srv.done <- nil // for the cleanup
	direct := queryProfile(t, bin, dir, from, until)
	if !bytes.Equal(served, direct) {
		t.Errorf("perflab query against the server wrote %d bytes, against its directory after SIGTERM %d: they differ", len(served), len(direct))
	}

	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(ctx, fixture...); err != nil {
		t.Fatal(err)
	}
	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(`{service_name="api"}`)
	want, err := ref.Merge(ctx, store.Selection{Type: cpu.Type, Selector: sel, Start: storetest.Epoch, End: storetest.Epoch.Add(3 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var wantBytes bytes.Buffer
	if err := want.Write(&wantBytes); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(direct, wantBytes.Bytes()) {
		t.Errorf("the store's merge of the pushed profiles differs from the Reference's")
	}
}

// TestServerKill9 kills a real perflab server with SIGKILL while pushes
// go on, restarts it on the same directory, and checks that every push it
// acknowledged is there.
func TestServerKill9(t *testing.T) {
	bin := perflab(t)
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServer(t, bin, dir)
	base := storetest.Fixture()[0]
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu    sync.Mutex
		acked []time.Time
		wg    sync.WaitGroup
	)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				p := base
				p.Time = storetest.Epoch.Add(time.Duration(w*1_000_000+i) * time.Second)
				p.Profile = base.Profile.Copy()
				p.Profile.TimeNanos = p.Time.UnixNano()
				if push(ctx, srv.url, p) != nil {
					return
				}
				mu.Lock()
				acked = append(acked, p.Time)
				mu.Unlock()
			}
		})
	}
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 200 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	srv.done <- nil
	cancel()
	wg.Wait()

	again := startServer(t, bin, dir)
	r, err := remote.Open(context.Background(), again.url, remote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	infos, err := r.Profiles(context.Background(), store.Selection{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[int64]bool{}
	for _, in := range infos {
		stored[in.Time.UnixNano()] = true
	}
	missing := 0
	for _, at := range acked {
		if !stored[at.UnixNano()] {
			missing++
		}
	}
	if missing > 0 || len(acked) < 200 {
		t.Errorf("after kill -9 and a restart: %d of the %d pushes acknowledged are missing (%d profiles stored)\n%s",
			missing, len(acked), len(infos), again.stderr)
	}
}
