package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// disasmProgs are the programs the disasm conformance test profiles: each
// writes a CPU profile to its first argument and an allocs profile to its
// second.
var disasmProgs = map[string]string{
	"hash": `package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
)

//go:noinline
func hash(b []byte) uint64 {
	var h uint64 = 1469598103934665603
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func mix(x uint64) uint64 { return x*31 + 7 }

var sink []string

func work(n int) uint64 {
	b := make([]byte, 4096)
	var s uint64
	for range n {
		s += mix(hash(b))
		b[s%4096]++
		if s%7 == 0 {
			sink = append(sink, strconv.Itoa(int(s)))
		}
	}
	return s
}

// main does a fixed amount of work, about 0.8 s of CPU, or the number of
// hashes its third argument says, so that its profiles hold as many
// samples on a loaded machine as on a quiet one.
func main() {
	runtime.MemProfileRate = 512
	n := 200000
	if len(os.Args) > 3 {
		n, _ = strconv.Atoi(os.Args[3])
	}
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	work(n)
	pprof.StopCPUProfile()
	f.Close()
	h, _ := os.Create(os.Args[2])
	pprof.Lookup("allocs").WriteTo(h, 0)
	h.Close()
}
`,
	"sortmap": `package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
)

type pair[K comparable, V any] struct {
	k K
	v V
}

func count(words []string) map[string]int {
	m := map[string]int{}
	for _, w := range words {
		m[strings.ToLower(w)]++
	}
	return m
}

func sorted[K comparable, V any](m map[K]V, less func(a, b pair[K, V]) int) []pair[K, V] {
	var ps []pair[K, V]
	for k, v := range m {
		ps = append(ps, pair[K, V]{k, v})
	}
	slices.SortFunc(ps, less)
	return ps
}

func main() {
	runtime.MemProfileRate = 512
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	var words []string
	for i := 0; i < 2000; i++ {
		words = append(words, fmt.Sprintf("Word%d", i%300))
	}
	n := 0
	for until := time.Now().Add(800 * time.Millisecond); time.Now().Before(until); {
		ps := sorted(count(words), func(a, b pair[string, int]) int { return strings.Compare(a.k, b.k) })
		n += len(ps)
	}
	pprof.StopCPUProfile()
	f.Close()
	h, _ := os.Create(os.Args[2])
	pprof.Lookup("allocs").WriteTo(h, 0)
	h.Close()
	fmt.Fprintln(os.Stderr, n)
}
`,
	"pipeline": `package main

import (
	"crypto/sha256"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

type job struct{ data []byte }

func produce(until time.Time, out chan<- job) {
	for i := 0; time.Now().Before(until); i++ {
		b := make([]byte, 256+i%512)
		for j := range b {
			b[j] = byte(i + j)
		}
		out <- job{b}
	}
	close(out)
}

func consume(in <-chan job, sums *[32]byte, mu *sync.Mutex) {
	for j := range in {
		s := sha256.Sum256(j.data)
		mu.Lock()
		for i := range s {
			sums[i] ^= s[i]
		}
		mu.Unlock()
	}
}

func main() {
	runtime.MemProfileRate = 512
	f, _ := os.Create(os.Args[1])
	pprof.StartCPUProfile(f)
	ch := make(chan job, 64)
	var sums [32]byte
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { consume(ch, &sums, &mu) })
	}
	produce(time.Now().Add(800*time.Millisecond), ch)
	wg.Wait()
	pprof.StopCPUProfile()
	f.Close()
	h, _ := os.Create(os.Args[2])
	pprof.Lookup("allocs").WriteTo(h, 0)
	h.Close()
}
`,
}

// profiledProg is a built program with the profiles it wrote.
type profiledProg struct{ bin, dir, cpu, allocs string }

// buildProfiled builds and runs one of disasmProgs.
func buildProfiled(t testing.TB, name string) profiledProg {
	t.Helper()
	bin := testprog.BuildSource(t, disasmProgs[name])
	dir := t.TempDir()
	p := profiledProg{bin: bin, dir: dir, cpu: filepath.Join(dir, "cpu.pprof"), allocs: filepath.Join(dir, "allocs.pprof")}
	if out, err := exec.Command(bin, p.cpu, p.allocs).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return p
}

// compareDisasm runs perflab disasm and go tool pprof -disasm with the same
// flags and arguments and wants the same stdout, or both to fail alike;
// it reports whether both succeeded.
func compareDisasm(t *testing.T, dir string, flags []string, rx string, args ...string) bool {
	t.Helper()
	pargs := append(append(slices.Clone(flags), "-disasm="+rx), args...)
	want, stderr, err := reporttest.RunPprof(t, dir, nil, pargs...)
	var got, errw bytes.Buffer
	perr := run(context.Background(), strings.NewReader(""), &got, &errw, append(append(append([]string{"disasm"}, flags...), rx), args...))
	if err != nil {
		if perr == nil || !strings.Contains(string(stderr), perr.Error()) {
			t.Fatalf("pprof %v failed with %q; perflab: %v", pargs, stderr, perr)
		}
		return false
	}
	if perr != nil {
		t.Fatalf("perflab disasm %v %s: %v", flags, rx, perr)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("perflab disasm %v %s differs from pprof: %s", flags, rx, reporttest.FirstDiff(got.Bytes(), want))
	}
	if !bytes.Contains(want, []byte("ROUTINE")) {
		t.Errorf("pprof %v printed no routine: the case tests nothing", pargs)
	}
	return true
}

// TestDisasmConformance compares perflab disasm with go tool pprof -disasm
// on real programs' CPU and allocs profiles, with and without the BINARY
// argument, and with report flags.
func TestDisasmConformance(t *testing.T) {
	reporttest.Pprof(t)
	for _, name := range []string{"hash", "sortmap", "pipeline"} {
		p := buildProfiled(t, name)
		cases := []struct {
			flags []string
			rx    string
			args  []string
		}{
			{nil, `main\.`, []string{p.bin, p.cpu}},
			{nil, `main\.`, []string{p.cpu}}, // the mapping's file
			{nil, `runtime\.(mallocgc|memmove)$`, []string{p.bin, p.cpu}},
			{[]string{"-focus=main"}, `.`, []string{p.bin, p.cpu}},
			{nil, `main\.`, []string{p.bin, p.allocs}},
			{[]string{"-sample_index=alloc_objects"}, `main\.|runtime\.mallocgc`, []string{p.bin, p.allocs}},
			{[]string{"-sample_index=inuse_space", "-ignore=runtime"}, `.`, []string{p.bin, p.allocs}},
			{[]string{"-unit=us", "-relative_percentages", "-focus=main"}, `sha256|main\.`, []string{p.bin, p.cpu}},
			{[]string{"-mean", "-sample_index=alloc_space"}, `main\.`, []string{p.bin, p.allocs}},
		}
		for _, c := range cases {
			t.Run(name+"/"+strings.Join(c.flags, ",")+c.rx+"/"+filepath.Base(c.args[0]), func(t *testing.T) {
				compareDisasm(t, p.dir, c.flags, c.rx, c.args...)
			})
		}
	}
}

// crossBuild builds src for GOOS goos and GOARCH goarch and returns the
// binary.
func crossBuild(t *testing.T, goos, goarch, src string, ldflags ...string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range map[string]string{"main.go": src, "go.mod": "module cross\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "prog-"+goos+"-"+goarch)
	args := []string{"build", "-o", bin}
	if len(ldflags) > 0 {
		args = append(args, "-ldflags="+strings.Join(ldflags, " "))
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build GOARCH=%s: %v\n%s", goarch, err, out)
	}
	return bin
}

// syntheticProfile writes a CPU-like profile of bin, which need not run
// here: one sample per main-package function of its symbol table, at an
// address inside it with that address's line, with a stack through
// main.main.
func syntheticProfile(t *testing.T, bin, buildID string) string {
	t.Helper()
	b, err := disasm.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	load, _ := b.LoadAddress()
	m := &profile.Mapping{ID: 1, Start: load, Limit: ^uint64(0) >> 1, File: bin, BuildID: buildID, HasFunctions: true}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
		Mapping: []*profile.Mapping{m},
	}
	var mainLoc *profile.Location
	for _, s := range b.Symbols(func(name string) bool { return strings.HasPrefix(name, "main.") }) {
		addr := s.Addr + 8*uint64(len(p.Location)%3+1)
		file, line, fname := b.Line(addr)
		if s.Size < 32 || fname != s.Name {
			continue // data, or not a function
		}
		fn := &profile.Function{ID: uint64(len(p.Function) + 1), Name: s.Name, SystemName: s.Name, Filename: file}
		p.Function = append(p.Function, fn)
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Mapping: m, Address: addr, Line: []profile.Line{{Function: fn, Line: int64(line)}}}
		p.Location = append(p.Location, loc)
		if s.Name == "main.main" {
			mainLoc = loc
		}
	}
	if len(p.Location) < 3 {
		t.Fatalf("%s: only %d main functions", bin, len(p.Location))
	}
	for i, l := range p.Location {
		stack := []*profile.Location{l}
		if mainLoc != nil && l != mainLoc {
			stack = append(stack, mainLoc)
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: stack, Value: []int64{int64(i + 1), int64(i+1) * 10000000}})
	}
	out := filepath.Join(t.TempDir(), "cpu.pprof")
	reporttest.WriteProfile(t, p, out)
	return out
}

// TestDisasmCross compares with pprof on binaries cross-compiled in the
// test, each with a profile made to match its symbol table: arm64 ELF,
// and the Mach-O and PE files of macOS and Windows.
func TestDisasmCross(t *testing.T) {
	reporttest.Pprof(t)
	for _, target := range []string{"linux/arm64", "darwin/arm64", "darwin/amd64", "windows/amd64", "windows/arm64"} {
		t.Run(strings.ReplaceAll(target, "/", "-"), func(t *testing.T) {
			goos, goarch, _ := strings.Cut(target, "/")
			bin := crossBuild(t, goos, goarch, disasmProgs["hash"])
			prof := syntheticProfile(t, bin, "")
			for _, rx := range []string{`main\.`, `main\.(hash|work)\b`} {
				if !compareDisasm(t, filepath.Dir(prof), nil, rx, bin, prof) || !compareDisasm(t, filepath.Dir(prof), nil, rx, prof) {
					t.Errorf("%s: both failed: nothing compared", rx)
				}
			}
		})
	}
}

// TestDisasmSearchPath finds a moved binary along $PPROF_BINARY_PATH: by
// name as pprof does (compared with it), and by build ID, which pprof's Go
// object reader cannot check.
func TestDisasmSearchPath(t *testing.T) {
	reporttest.Pprof(t)
	p := buildProfiled(t, "hash")
	data, err := os.ReadFile(p.bin)
	if err != nil {
		t.Fatal(err)
	}
	var buildID string
	search := t.TempDir()
	byName := rewriteProfile(t, p.cpu, func(pr *profile.Profile) {
		buildID = pr.Mapping[0].BuildID
		pr.Mapping[0].File, pr.Mapping[0].BuildID = "/nowhere/moved", ""
	})
	byID := rewriteProfile(t, p.cpu, func(pr *profile.Profile) { pr.Mapping[0].File = "/nowhere/moved" })
	if buildID == "" {
		t.Fatal("the profile's mapping has no build ID")
	}
	for _, f := range []string{filepath.Join(search, "moved"), filepath.Join(search, buildID, "prog")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PPROF_BINARY_PATH", search)
	compareDisasm(t, p.dir, nil, `main\.`, byName)
	if err := os.Remove(filepath.Join(search, "moved")); err != nil {
		t.Fatal(err)
	}
	want := runInProcess(t, "disasm", `main\.`, p.bin, p.cpu)
	if got := runInProcess(t, "disasm", `main\.`, byID); !bytes.Equal(got, want) {
		t.Errorf("found by build ID: %s", reporttest.FirstDiff(got, want))
	}
}

// TestDisasmInlines checks -inlines on hash's inlined call of mix: the
// instructions of mix inside work carry the chain mix < work, and the
// listing is pprof's otherwise.
func TestDisasmInlines(t *testing.T) {
	p := buildProfiled(t, "hash")
	plain := runInProcess(t, "disasm", `main\.work`, p.bin, p.cpu)
	got := runInProcess(t, "disasm", "-inlines", `main\.work`, p.bin, p.cpu)
	var kept []string
	chains := 0
	lines := strings.Split(string(got), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "| ") {
			kept = append(kept, l)
			continue
		}
		if strings.Contains(l, "| main.mix ") && i+1 < len(lines) && strings.Contains(lines[i+1], "| main.work main.go:") {
			chains++
		}
	}
	if chains == 0 {
		t.Errorf("no mix < work chain in:\n%s", got)
	}
	if strings.Join(kept, "\n") != string(plain) {
		t.Errorf("-inlines changed pprof's lines: %s", reporttest.FirstDiff([]byte(strings.Join(kept, "\n")), plain))
	}
}

// TestShellDisasm runs disasm and weblist in the shell: disasm prints what
// perflab disasm (checked against pprof above) prints; weblist serves the
// web source view and prints its URL.
func TestShellDisasm(t *testing.T) {
	p := buildProfiled(t, "hash")
	want := runInProcess(t, "disasm", `main\.`, p.cpu)
	var out, errw bytes.Buffer
	in := "disasm main\\.\nweblist main\nquit\n"
	if err := run(context.Background(), strings.NewReader(in), &out, &errw, []string{"shell", p.cpu}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), want) {
		t.Errorf("shell disasm output:\n%s\nwant it to contain:\n%s", out.String(), want)
	}
	if !strings.Contains(out.String(), "/ui/source?") || !strings.Contains(errw.String(), "Serving web UI on http://127.0.0.1:") {
		t.Errorf("weblist: stdout %q, stderr %q", out.String(), errw.String())
	}
}

// BenchmarkDisasm is "perflab disasm . BINARY PROFILE" on the hash
// program's CPU profile: every sampled function, runtime included, decoded
// and annotated. scripts/bench-disasm compares with go tool pprof on a
// large binary.
func BenchmarkDisasm(b *testing.B) {
	p := buildProfiled(b, "hash")
	args := []string{"disasm", ".", p.bin, p.cpu}
	b.ReportAllocs()
	for b.Loop() {
		if err := run(context.Background(), nil, io.Discard, io.Discard, args); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDisasmBase compares -base and -diff_base (negative values, the
// base's total) with pprof, on two runs of the same binary.
func TestDisasmBase(t *testing.T) {
	reporttest.Pprof(t)
	p := buildProfiled(t, "hash")
	// A quarter of the work: the difference is three quarters of the
	// profile, never a wash.
	base, allocs := filepath.Join(p.dir, "cpu2.pprof"), filepath.Join(p.dir, "allocs2.pprof")
	if out, err := exec.Command(p.bin, base, allocs, "50000").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, flag := range []string{"-base=" + base, "-diff_base=" + base} {
		if !compareDisasm(t, p.dir, []string{flag}, `main\.`, p.bin, p.cpu) {
			t.Errorf("%s: both failed: nothing compared", flag)
		}
	}
}
