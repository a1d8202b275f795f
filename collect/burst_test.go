package collect_test

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// startDebugServer runs collect/internal/cmd/debugserver with args until
// the test ends and returns its base URL. The server runs in a process of
// its own, so that what it does (a goroutine dump stops its world) does
// not hold up the test's clients.
func startDebugServer(t *testing.T, args ...string) string {
	t.Helper()
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/collect/internal/cmd/debugserver")
	cmd := exec.Command(bin, append([]string{"-for", "2m"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("debugserver: %v", err)
	}
	return "http://" + addr[:len(addr)-1]
}

// TestBurstGets429 sends 100 goroutine dumps at once, each on a new
// connection, as a monitoring burst or a careless script would, to a
// program holding thousands of goroutines: dumps run one at a time, so
// some get 429 Too Many Requests, and none is cut off by a reset or an
// empty answer (newer connections used to evict those whose request had
// not started yet: 21 to 38 resets in 100).
func TestBurstGets429(t *testing.T) {
	const burst = 100
	base := startDebugServer(t, "-parked", "1000") + "/debug/pprof/"
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Minute}
	var mu sync.Mutex
	statuses := map[int]int{}
	var failed []error
	var wg sync.WaitGroup
	for range burst {
		wg.Go(func() {
			resp, err := client.Get(base + "goroutine?debug=2")
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed = append(failed, err)
				return
			}
			statuses[resp.StatusCode]++
		})
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Errorf("%d of %d requests failed, such as: %v", len(failed), burst, failed[0])
	}
	t.Logf("statuses %v", statuses)
	if statuses[http.StatusTooManyRequests] == 0 || statuses[http.StatusOK] == 0 || len(statuses) != 2 {
		t.Errorf("statuses %v, want 200s and 429s only", statuses)
	}
}
