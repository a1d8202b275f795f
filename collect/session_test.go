package collect_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/collect"
)

// TestProgram runs the real test program under every way of asking for
// profiles and reads what it wrote with perflab's loader.
func TestProgram(t *testing.T) {
	bin := buildProg(t)
	t.Run("AllKinds", func(t *testing.T) { testAllKinds(t, bin) })
	t.Run("Flags", func(t *testing.T) { testFlags(t, bin) })
	t.Run("Env", func(t *testing.T) { testEnv(t, bin) })
	t.Run("BadEnv", func(t *testing.T) { testBadEnv(t, bin) })
	t.Run("UnwritableDir", func(t *testing.T) { testUnwritableDir(t, bin) })
	t.Run("SIGINT", func(t *testing.T) { testSignal(t, bin, syscall.SIGINT) })
	t.Run("SIGTERM", func(t *testing.T) { testSignal(t, bin, syscall.SIGTERM) })
	t.Run("SIGINTIgnored", func(t *testing.T) { testIgnoredSignal(t, bin) })
	t.Run("Killed", func(t *testing.T) { testKilled(t, bin) })
}

// testAllKinds checks every kind's file, and that the wall-clock profile
// sees the sleeping goroutine the CPU profile cannot.
func testAllKinds(t *testing.T, bin string) {
	dir := filepath.Join(t.TempDir(), "out")
	const work = 600 * time.Millisecond
	stdout, stderr, err := run(t, bin, nil, "-kinds=all", "-dir="+dir, "-work="+work.String())
	if err != nil {
		t.Fatalf("collectprog: %v\n%s", err, stderr)
	}
	var want []string
	for _, k := range collect.Kinds {
		want = append(want, filepath.Join(dir, k.FileName()))
	}
	if got := strings.Fields(stdout); !slices.Equal(got, want) {
		t.Fatalf("Files() = %q, want %q", got, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(collect.Kinds) {
		t.Errorf("directory holds %d entries, want %d (no temporary files left)", len(entries), len(collect.Kinds))
	}

	cpu := load(t, filepath.Join(dir, "cpu.pprof"))
	if cum(cpu, "main.busyWork", index(t, cpu, "cpu")) == 0 {
		t.Errorf("cpu profile has no time in main.busyWork")
	}
	if n := cum(cpu, "main.sleepyWork", index(t, cpu, "cpu")); n != 0 {
		t.Errorf("cpu profile has %d ns in main.sleepyWork, which only sleeps", n)
	}
	checkWall(t, load(t, filepath.Join(dir, "wall.pprof")), work)

	heap := load(t, filepath.Join(dir, "heap.pprof"))
	if cum(heap, "main.allocWork", index(t, heap, "inuse_space")) == 0 {
		t.Errorf("heap profile has no live bytes from main.allocWork")
	}
	if p := load(t, filepath.Join(dir, "allocs.pprof")); p.DefaultSampleType != "alloc_space" {
		t.Errorf("allocs profile's default sample type is %q, want alloc_space", p.DefaultSampleType)
	}
	block := load(t, filepath.Join(dir, "block.pprof"))
	if cum(block, "main.chanBlock", index(t, block, "delay")) == 0 {
		t.Errorf("block profile has no delay in main.chanBlock")
	}
	mutex := load(t, filepath.Join(dir, "mutex.pprof"))
	if cum(mutex, "main.lockWork.func1", index(t, mutex, "delay")) == 0 {
		t.Errorf("mutex profile has no contention in main.lockWork.func1")
	}
	if g := load(t, filepath.Join(dir, "goroutine.pprof")); cum(g, "main.main", 0) == 0 {
		t.Errorf("goroutine profile lacks main.main")
	}
	load(t, filepath.Join(dir, "threadcreate.pprof"))
	checkTraceFile(t, filepath.Join(dir, "trace.out"))
}

// checkWall checks a wall-clock profile of one run of the workload of
// length work: main.sleepyWork sleeps for work/2 and main.busyWork spins
// for work in all, so the profile must show both, about 1:2.
func checkWall(t *testing.T, wall *profile.Profile, work time.Duration) {
	t.Helper()
	if got := sampleTypes(wall); got != "samples/count,wall/nanoseconds" {
		t.Fatalf("wall profile sample types %s", got)
	}
	i := index(t, wall, "wall")
	sleepy := time.Duration(cum(wall, "main.sleepyWork", i))
	busy := time.Duration(cum(wall, "main.busyWork", i))
	if sleepy < work/4 || sleepy > work {
		t.Errorf("wall profile: main.sleepyWork %v, want about %v", sleepy, work/2)
	}
	if ratio := float64(busy) / float64(sleepy); ratio < 1.3 || ratio > 3 {
		t.Errorf("wall profile: main.busyWork %v / main.sleepyWork %v = %.2f, want about 2", busy, sleepy, ratio)
	}
	if n := cum(wall, "github.com/perflab/perflab/collect.(*wallSampler).run", i) + cum(wall, "runtime/pprof.profileWriter", i); n != 0 {
		t.Errorf("wall profile includes the profiler's own goroutines (%d ns)", n)
	}
	for _, fn := range wall.Function {
		if isMachineryName(fn.Name) {
			t.Errorf("wall profile holds function %s of the profiler's own stacks", fn.Name)
		}
	}
	if err := wall.CheckValid(); err != nil {
		t.Errorf("wall profile: %v", err)
	}
}

// isMachineryName reports whether name is one of the functions the wall
// profiler leaves out with its own stacks.
func isMachineryName(name string) bool {
	return strings.HasPrefix(name, "github.com/perflab/perflab/collect.(*wallSampler)") || strings.HasPrefix(name, "runtime/pprof.profileWriter")
}

func checkTraceFile(t *testing.T, name string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if n := readTrace(t, filepath.Base(name), data); n == 0 {
		t.Errorf("%s holds no events", filepath.Base(name))
	}
}

// testFlags runs the program with go test's flag names and checks each
// file holds the kind go test would write there.
func testFlags(t *testing.T, bin string) {
	dir := t.TempDir()
	f := func(name string) string { return filepath.Join(dir, name) }
	_, stderr, err := run(t, bin, nil, "-cpuprofile="+f("havlak1.prof"), "-memprofile="+f("mem.prof"),
		"-memprofilerate=1", "-blockprofile="+f("block.prof"), "-mutexprofile="+f("mutex.prof"), "-trace="+f("t.out"))
	if err != nil {
		t.Fatalf("collectprog: %v\n%s", err, stderr)
	}
	if p := load(t, f("havlak1.prof")); cum(p, "main.busyWork", 1) == 0 {
		t.Errorf("-cpuprofile: no time in main.busyWork")
	}
	mem := load(t, f("mem.prof"))
	if mem.DefaultSampleType != "alloc_space" {
		t.Errorf("-memprofile wrote default sample type %q, want alloc_space as go test's allocs profile", mem.DefaultSampleType)
	}
	// With -memprofilerate=1 every allocation is recorded: 256 of them in
	// allocBlock, each of 64 KiB (the runtime may add small ones of its own).
	var blocks int64
	for _, s := range mem.Sample {
		if hasFunc(s, "main.allocBlock") && slices.Equal(s.NumLabel["bytes"], []int64{64 << 10}) {
			blocks += s.Value[index(t, mem, "alloc_objects")]
		}
	}
	if blocks != 256 {
		t.Errorf("-memprofilerate=1: %d allocations of 64 KiB in main.allocBlock, want exactly 256", blocks)
	}
	if p := load(t, f("block.prof")); cum(p, "main.chanBlock", 1) == 0 {
		t.Errorf("-blockprofile: no delay in main.chanBlock")
	}
	load(t, f("mutex.prof"))
	checkTraceFile(t, f("t.out"))
}

// testEnv switches collection on from the environment alone.
func testEnv(t *testing.T, bin string) {
	dir := filepath.Join(t.TempDir(), "envout")
	_, stderr, err := run(t, bin, []string{"PERFLAB_PROFILE=cpu, heap", "PERFLAB_PROFILE_DIR=" + dir})
	if err != nil {
		t.Fatalf("collectprog: %v\n%s", err, stderr)
	}
	names := dirNames(t, dir)
	if !slices.Equal(names, []string{"cpu.pprof", "heap.pprof"}) {
		t.Fatalf("PERFLAB_PROFILE=cpu,heap wrote %q", names)
	}
	load(t, filepath.Join(dir, "cpu.pprof"))
	load(t, filepath.Join(dir, "heap.pprof"))
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func testBadEnv(t *testing.T, bin string) {
	dir := t.TempDir()
	_, stderr, err := run(t, bin, []string{"PERFLAB_PROFILE=cpu,bogus", "PERFLAB_PROFILE_DIR=" + dir})
	checkOneLineFailure(t, err, stderr, "PERFLAB_PROFILE", `"bogus"`)
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("a bad PERFLAB_PROFILE still wrote %q", names)
	}
}

// testUnwritableDir asks for a directory under a regular file, which no
// user, root included, can create.
func testUnwritableDir(t *testing.T, bin string) {
	file := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, bin, nil, "-kinds=heap", "-dir="+filepath.Join(file, "out"))
	checkOneLineFailure(t, err, stderr, "heap profile", "plain/out", "not a directory")
}

// checkOneLineFailure checks the program exited with status 1 and said
// one line on stderr holding every want.
func checkOneLineFailure(t *testing.T, err error, stderr string, want ...string) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, want status 1; stderr:\n%s", err, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 {
		t.Errorf("stderr has %d lines, want 1:\n%s", len(lines), stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr %q lacks %q", stderr, w)
		}
	}
}

// startWaiting starts the program in -wait mode and returns once it has
// started its session.
func startWaiting(t *testing.T, bin string, args ...string) *exec.Cmd {
	t.Helper()
	return startWaitingCmd(t, exec.Command(bin, append([]string{"-wait", "-work=100ms"}, args...)...))
}

// startWaitingCmd starts a command that runs the program in -wait mode.
func startWaitingCmd(t *testing.T, cmd *exec.Cmd) *exec.Cmd {
	t.Helper()
	cmd.Env = cleanEnv()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("collectprog said %q, %v", line, err)
	}
	time.Sleep(300 * time.Millisecond) // let every kind record something
	return cmd
}

// testSignal interrupts a program that never calls Stop: the files are
// complete and the process still dies of the signal.
func testSignal(t *testing.T, bin string, sig syscall.Signal) {
	dir := t.TempDir()
	cmd := startWaiting(t, bin, "-kinds=cpu,wall,heap,trace", "-dir="+dir)
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != sig {
		t.Errorf("exit: %v, want death by %v", err, sig)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"cpu.pprof", "heap.pprof", "trace.out", "wall.pprof"}) {
		t.Fatalf("after %v the directory holds %q", sig, names)
	}
	if p := load(t, filepath.Join(dir, "cpu.pprof")); cum(p, "main.busyWork", 1) == 0 {
		t.Errorf("cpu profile flushed on %v has no time in main.busyWork", sig)
	}
	if p := load(t, filepath.Join(dir, "wall.pprof")); cum(p, "main.sleepyWork", 1) == 0 {
		t.Errorf("wall profile flushed on %v has no time in main.sleepyWork", sig)
	}
	load(t, filepath.Join(dir, "heap.pprof"))
	checkTraceFile(t, filepath.Join(dir, "trace.out"))
}

// testIgnoredSignal starts the program as a shell starts a background
// job, with SIGINT ignored: SIGINT must neither end it nor stop its
// profiles, which SIGTERM still flushes.
func testIgnoredSignal(t *testing.T, bin string) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to start the program with SIGINT ignored")
	}
	dir := t.TempDir()
	cmd := startWaitingCmd(t, exec.Command(sh, "-c", `trap "" INT; exec "$0" "$@"`,
		bin, "-wait", "-work=100ms", "-kinds=cpu,heap", "-dir="+dir))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-exited:
		t.Fatalf("the program ended on SIGINT, which it ignores: %v", err)
	case <-time.After(time.Second):
	}
	for _, name := range dirNames(t, dir) {
		if !strings.HasPrefix(name, ".") { // only temporary files while profiling
			t.Fatalf("SIGINT, which the program ignores, stopped its profiles: the directory holds %s", name)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = <-exited
	if ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("exit: %v, want death by SIGTERM", err)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"cpu.pprof", "heap.pprof"}) {
		t.Fatalf("after SIGINT then SIGTERM the directory holds %q", names)
	}
	if p := load(t, filepath.Join(dir, "cpu.pprof")); cum(p, "main.busyWork", 1) == 0 {
		t.Errorf("cpu profile flushed on SIGTERM has no time in main.busyWork")
	}
}

// testKilled kills a program with SIGKILL, which nothing can catch: the
// profiles a previous run wrote to the same directory stay whole, and no
// half-written file takes their names.
func testKilled(t *testing.T, bin string) {
	dir := t.TempDir()
	if _, stderr, err := run(t, bin, nil, "-kinds=cpu,heap", "-dir="+dir, "-work=100ms"); err != nil {
		t.Fatalf("first run: %v\n%s", err, stderr)
	}
	before := map[string][]byte{}
	for _, name := range []string{"cpu.pprof", "heap.pprof"} {
		before[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	cmd := startWaiting(t, bin, "-kinds=cpu,heap", "-dir="+dir)
	cmd.Process.Kill()
	cmd.Wait()
	for name, data := range before {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || string(got) != string(data) {
			t.Errorf("%s changed after the second run was killed (err %v)", name, err)
		}
		load(t, filepath.Join(dir, name))
	}
}
