package pprofproto

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

// workload burns CPU in recursion and maps, allocates, contends on a
// mutex and blocks on channels, then writes every kind of profile, in
// profile.proto and in the legacy debug=1 text format, into its argument
// directory.
const workload = `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink []byte

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func mapWork(n int) int {
	m := map[int]int{}
	for i := range n {
		m[i%1000] += i
	}
	return len(m)
}

func main() {
	dir := os.Args[1]
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	runtime.MemProfileRate = 512
	cpu, _ := os.Create(filepath.Join(dir, "cpu.pprof"))
	pprof.StartCPUProfile(cpu)
	var mu sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan int)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
				mu.Lock()
				sink = make([]byte, 64<<g)
				fib(18)
				mu.Unlock()
				mapWork(2000)
			}
			ch <- g
		}()
	}
	for range 4 {
		<-ch
	}
	wg.Wait()
	pprof.StopCPUProfile()
	cpu.Close()
	for _, name := range []string{"heap", "allocs", "block", "mutex", "goroutine", "threadcreate"} {
		for _, debug := range []int{0, 1} {
			f, _ := os.Create(filepath.Join(dir, fmt.Sprintf("%s.%d", name, debug)))
			pprof.Lookup(name).WriteTo(f, debug)
			f.Close()
		}
	}
}
`

// TestDecodeRealProfiles runs a real Go program that writes CPU, heap,
// allocs, block, mutex, goroutine and threadcreate profiles, and checks
// that Decode reads each exactly as profile.ParseData does.
func TestDecodeRealProfiles(t *testing.T) {
	bin := testprog.BuildSource(t, workload)
	dir := t.TempDir()
	if out, err := exec.Command(bin, dir).CombinedOutput(); err != nil {
		t.Fatalf("workload: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) != 13 {
		t.Fatalf("workload wrote %d profiles, want 13", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw := data
		if isGzip(data) {
			if raw, err = Gunzip(data, -1); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkSame(t, f+" (gunzipped)", raw)
		}
		if p := checkSame(t, f, data); p == nil {
			t.Errorf("%s: ParseData and Decode both fail to read it", f)
		}
		if !strings.HasSuffix(f, ".1") { // debug=1 files are legacy text
			mustBeFast(t, f, data)
		}
	}
}
