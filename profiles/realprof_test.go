package profiles

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// workload is a real program that writes every kind of profile runtime/pprof
// offers, in profile.proto (NAME.pb.gz) and legacy text (NAME.txt), into the
// directory given as its argument.
const workload = `package main

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink [][]byte

//go:noinline
func alloc(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 1024+i))
	}
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func contend() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	ch := make(chan int)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				mu.Lock()
				time.Sleep(20 * time.Microsecond)
				mu.Unlock()
			}
			ch <- i
		}()
	}
	for i := 0; i < 4; i++ {
		<-ch
	}
	wg.Wait()
}

func main() {
	dir := os.Args[1]
	runtime.MemProfileRate = 512
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	f, _ := os.Create(filepath.Join(dir, "cpu.pb.gz"))
	pprof.StartCPUProfile(f)
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		fib(22)
	}
	pprof.StopCPUProfile()
	f.Close()
	alloc(300)
	contend()
	stop := make(chan bool)
	for i := 0; i < 3; i++ {
		go func() { <-stop }()
	}
	runtime.GC()
	for _, name := range []string{"heap", "allocs", "block", "mutex", "goroutine", "threadcreate"} {
		for _, debug := range []int{0, 1} {
			file := name + ".pb.gz"
			if debug == 1 {
				file = name + ".txt"
			}
			w, err := os.Create(filepath.Join(dir, file))
			if err != nil {
				panic(err)
			}
			pprof.Lookup(name).WriteTo(w, debug)
			w.Close()
		}
	}
	close(stop)
}
`

// writeProfiles builds and runs workload, returning its binary and the
// directory holding its profiles.
func writeProfiles(t *testing.T) (bin, dir string) {
	t.Helper()
	bin = testprog.BuildSource(t, workload)
	dir = t.TempDir()
	if out, err := exec.Command(bin, dir).CombinedOutput(); err != nil {
		t.Fatalf("workload: %v\n%s", err, out)
	}
	return bin, dir
}

// pprofRaw runs the oracle, go tool pprof -raw, with args.
func pprofRaw(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := reporttest.RunPprof(t, "", nil, append([]string{"-raw"}, args...)...)
	if err != nil {
		t.Fatalf("go tool pprof -raw %v: %v\n%s", args, err, stderr)
	}
	return string(out)
}

// loadArgs loads what a pprof command line names: sources, and -base or
// -diff_base FILE.
func loadArgs(t *testing.T, args []string) (*profile.Profile, error) {
	t.Helper()
	var opts Options
	var sources []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-diff_base":
			opts.DiffBase = true
			fallthrough
		case "-base":
			i++
			opts.Base = append(opts.Base, args[i])
		default:
			sources = append(sources, args[i])
		}
	}
	return Load(context.Background(), sources, opts)
}

// TestMatchesPprofRaw loads real profiles of every kind and format, alone,
// merged, with a base and with a binary to symbolize them, and checks that
// the loaded profile is the one go tool pprof reports with -raw.
func TestMatchesPprofRaw(t *testing.T) {
	bin, dir := writeProfiles(t)
	f := func(name string) string { return filepath.Join(dir, name) }
	writeLegacyCPU(t, f("cpu.pb.gz"), f("cpu.legacy"))
	gunzipFile(t, f("heap.pb.gz"), f("heap.pb"))
	gzipFile(t, f("block.txt"), f("block.txt.gz"))
	tests := []struct {
		args []string
		want string // a function name the loaded profile must show
	}{
		{[]string{f("cpu.pb.gz")}, "main.fib"},
		{[]string{f("heap.pb")}, "main.alloc"},
		{[]string{f("heap.txt")}, ""},
		{[]string{bin, f("heap.txt")}, "main.alloc"},
		{[]string{bin, f("allocs.txt")}, "main.alloc"},
		{[]string{bin, f("block.txt")}, "main.contend.func1"},
		{[]string{bin, f("mutex.txt")}, "main.contend.func1"},
		{[]string{bin, f("goroutine.txt")}, "main.main.func1"},
		{[]string{bin, f("threadcreate.txt")}, ""},
		{[]string{bin, f("cpu.legacy")}, "main.fib"},
		{[]string{bin, f("block.txt.gz")}, "main.contend.func1"},
		{[]string{f("block.pb.gz")}, "main.contend.func1"},
		{[]string{f("heap.pb.gz"), f("heap.pb")}, "main.alloc"},
		{[]string{bin, f("heap.txt"), f("heap.pb.gz")}, "main.alloc"},
		{[]string{bin, f("block.txt"), f("block.pb.gz")}, "main.contend.func1"},
		{[]string{"-base", f("allocs.pb.gz"), f("heap.pb.gz")}, ""}, // the same samples: nothing left
		{[]string{"-diff_base", f("allocs.pb.gz"), f("heap.pb.gz")}, "main.alloc"},
		{[]string{"-diff_base", f("heap.txt"), bin, f("allocs.txt")}, "main.alloc"},
	}
	t.Run("Symbolize", func(t *testing.T) { testSymbolize(t, bin, f("cpu.legacy")) })
	t.Run("binary alone", func(t *testing.T) {
		p, err := Load(context.Background(), []string{bin}, Options{})
		checkError(t, p, err, bin+": ", "an executable, not a profile")
	})
	for _, tt := range tests {
		name := strings.ReplaceAll(strings.Join(tt.args, " "), dir+"/", "")
		name = strings.ReplaceAll(name, bin, "BINARY")
		t.Run(name, func(t *testing.T) {
			p, err := loadArgs(t, tt.args)
			if err != nil {
				t.Fatal(err)
			}
			got := p.String()
			if want := pprofRaw(t, tt.args...); got != want {
				t.Errorf("loaded profile differs from go tool pprof -raw:\n--- got\n%s\n--- want\n%s", got, want)
			}
			if tt.want != "" && !hasFunction(p, tt.want) {
				t.Errorf("no function %s in the loaded profile", tt.want)
			}
		})
	}
}

// testSymbolize symbolizes a legacy CPU profile with the exported
// Symbolize and compares its functions with go tool pprof -top's.
func testSymbolize(t *testing.T, bin, legacy string) {
	data, err := os.ReadFile(legacy)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseData(legacy, data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Symbolize(p, legacy); err == nil || !strings.Contains(err.Error(), "not an ELF binary") {
		t.Errorf("Symbolize with a profile as the binary: %v", err)
	}
	if err := Symbolize(p, bin); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := reporttest.RunPprof(t, "", nil, "-top", "-nodecount=1000", bin, legacy)
	if err != nil {
		t.Fatalf("go tool pprof -top: %v\n%s", err, stderr)
	}
	_, table, ok := strings.Cut(string(out), "flat%   sum%        cum   cum%\n")
	if !ok {
		t.Fatalf("unexpected go tool pprof -top output:\n%s", out)
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(table), "\n") {
		fields := strings.Fields(line)
		want = append(want, fields[len(fields)-1])
	}
	if len(want) == 0 || !slices.Contains(want, "main.fib") {
		t.Fatalf("go tool pprof -top shows no main.fib:\n%s", out)
	}
	for _, name := range want {
		if !hasFunction(p, name) {
			t.Errorf("go tool pprof -top shows %s; Symbolize found no such function", name)
		}
	}
}

func hasFunction(p *profile.Profile, name string) bool {
	for _, f := range p.Function {
		if f.Name == name {
			return true
		}
	}
	return false
}

func gunzipFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := decompress(data, NewBudget(DefaultMaxBytes))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, gzipped(t, data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeLegacyCPU rewrites a real CPU profile in the legacy binary format
// (see legacyCPU). Its addresses are unsymbolized.
func writeLegacyCPU(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]uint64, len(p.Sample))
	stacks := make([][]uint64, len(p.Sample))
	for i, s := range p.Sample {
		counts[i] = uint64(s.Value[0])
		for j, l := range s.Location {
			addr := l.Address
			if j > 0 {
				addr++ // legacy profiles hold return addresses for callers
			}
			stacks[i] = append(stacks[i], addr)
		}
	}
	if err := os.WriteFile(to, legacyCPU(uint64(p.Period/1000), counts, stacks), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCompilerMemProfile loads the legacy heap profile the Go compiler
// writes with -memprofile, symbolized from the compiler binary itself.
func TestCompilerMemProfile(t *testing.T) {
	goCmd := testprog.Oracle(t, "go")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(workload), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module w\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(dir, "compile.mem")
	build := exec.Command(goCmd, "build", "-gcflags=-memprofile="+mem, "-o", os.DevNull, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	toolDir, err := exec.Command(goCmd, "env", "GOTOOLDIR").Output()
	if err != nil {
		t.Fatal(err)
	}
	compiler := filepath.Join(strings.TrimSpace(string(toolDir)), "compile")
	data, err := os.ReadFile(mem)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("heap profile: ")) || !bytes.Contains(data, []byte("@ heap/1048576")) {
		t.Fatalf("the compiler's profile is not the legacy heap format: %.80q", data)
	}
	p, err := Load(context.Background(), []string{compiler, mem}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.String(), pprofRaw(t, compiler, mem); got != want {
		t.Errorf("loaded profile differs from go tool pprof -raw:\n--- got\n%s\n--- want\n%s", got, want)
	}
	if !p.Mapping[0].HasFunctions {
		t.Errorf("the compiler's profile was not symbolized")
	}
}
