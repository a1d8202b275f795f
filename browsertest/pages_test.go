package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/testprog"
)

const (
	// leakProg keeps every request's record in an ever-growing map, and
	// makes short-lived garbage as a server would. It counts work rather
	// than time, so that a busy machine changes its length, not its GCs.
	leakProg = `package main

import "time"

var sink []byte

func main() {
	m := make(map[int][]byte)
	for i := 0; i < 150*4000; i++ {
		m[i] = make([]byte, 64)
		if i%4000 == 0 {
			sink = make([]byte, 512<<10)
			time.Sleep(2 * time.Millisecond)
		}
	}
	println("entries", len(m))
}
`
	// busyProg runs 1000 goroutines that compute and yield for a second,
	// far more runnable goroutines than there are Ps.
	busyProg = `package main

import (
	"runtime"
	"sync"
	"time"
)

var sink int

func main() {
	var wg sync.WaitGroup
	start := time.Now()
	for g := 0; g < 1000; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(start) < time.Second {
				for j := 0; j < 2000; j++ {
					sink += j ^ g
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
}
`
)

// TestCommandPagesDraw runs perflab gc and perflab sched with -html on
// real programs and checks in headless Chromium that each page draws all
// its charts without console errors.
func TestCommandPagesDraw(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	for _, tt := range []struct {
		name  string
		args  []string
		prog  string
		drawn int
		text  string // in the page's summary
	}{
		{"gc", []string{"gc"}, leakProg, 3, "heap growing"},
		{"sched", []string{"sched", "-interval", "20ms"}, busyProg, 2, "saturated"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), tt.name+".html")
			args := append(tt.args, "-html", page, "-o", os.DevNull, "--", testprog.BuildSource(t, tt.prog))
			if out, err := exec.Command(perflab, args...).CombinedOutput(); err != nil {
				t.Fatalf("perflab %q: %v\n%s", args, err, out)
			}
			p, err := b.Open("file://"+page, 30*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			browser.CheckCharts(t, p, tt.drawn, 0)
			summary, err := browser.Eval[string](p, `document.querySelector("pre.perflab-summary").textContent`)
			if err != nil || !strings.Contains(summary, tt.text) {
				t.Errorf("page summary %q (err %v) lacks %q", summary, err, tt.text)
			}
			browser.ScreenshotForTest(t, p, tt.name)
		})
	}
}
