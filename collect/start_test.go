package collect_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/perflab/perflab/collect"
)

// TestRatesRestored checks that Start applies the requested rates and
// Stop puts back the ones in force before.
func TestRatesRestored(t *testing.T) {
	oldMem := runtime.MemProfileRate
	oldMutex := runtime.SetMutexProfileFraction(3)
	defer func() {
		runtime.MemProfileRate = oldMem
		runtime.SetMutexProfileFraction(oldMutex)
	}()
	s := collect.Start(collect.Profiles(collect.Heap, collect.Mutex, collect.Block), collect.Dir(t.TempDir()),
		collect.MemProfileRate(1), collect.MutexProfileFraction(5), collect.BlockProfileRate(7),
		collect.IgnoreEnv(), collect.NoSignals())
	if runtime.MemProfileRate != 1 {
		t.Errorf("during the session MemProfileRate = %d, want 1", runtime.MemProfileRate)
	}
	if got := runtime.SetMutexProfileFraction(-1); got != 5 {
		t.Errorf("during the session the mutex fraction = %d, want 5", got)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if runtime.MemProfileRate != oldMem {
		t.Errorf("after Stop MemProfileRate = %d, want %d", runtime.MemProfileRate, oldMem)
	}
	if got := runtime.SetMutexProfileFraction(-1); got != 3 {
		t.Errorf("after Stop the mutex fraction = %d, want 3", got)
	}
}

// TestRuntimeRejects starts a CPU profile while one already runs: the
// error names the kind and the runtime's reason, and the other kinds are
// still written.
func TestRuntimeRejects(t *testing.T) {
	if err := pprof.StartCPUProfile(new(bytes.Buffer)); err != nil {
		t.Skipf("cannot start the first CPU profile: %v", err)
	}
	defer pprof.StopCPUProfile()
	dir := t.TempDir()
	var log bytes.Buffer
	s := collect.Start(collect.Profiles(collect.CPU, collect.Goroutine), collect.Dir(dir),
		collect.Log(&log), collect.IgnoreEnv(), collect.NoSignals())
	err := s.Err()
	if err == nil || !strings.Contains(err.Error(), "cpu profile") || !strings.Contains(err.Error(), "already in use") {
		t.Fatalf("Err() = %v, want the cpu profile's refusal", err)
	}
	if strings.Count(log.String(), "\n") != 1 || !strings.Contains(log.String(), "already in use") {
		t.Errorf("log = %q, want one line with the refusal", log.String())
	}
	if stopErr := s.Stop(); stopErr == nil || stopErr.Error() != err.Error() {
		t.Errorf("Stop() = %v, want Start's error %v", stopErr, err)
	}
	if got := s.Files(); len(got) != 1 || filepath.Base(got[0]) != "goroutine.pprof" {
		t.Errorf("Files() = %q, want only goroutine.pprof", got)
	}
	load(t, filepath.Join(dir, "goroutine.pprof"))
	if _, err := os.Stat(filepath.Join(dir, "cpu.pprof")); !os.IsNotExist(err) {
		t.Errorf("a refused cpu profile left a file: %v", err)
	}
}

// TestStopTwice checks Stop is idempotent: the second call writes nothing
// and returns the first call's result.
func TestStopTwice(t *testing.T) {
	dir := t.TempDir()
	s := collect.Start(collect.Profiles(collect.Goroutine), collect.Dir(dir), collect.IgnoreEnv())
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "goroutine.pprof")
	before, _ := os.Stat(name)
	if err := os.Remove(name); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if _, err := os.Stat(name); !os.IsNotExist(err) {
		t.Errorf("second Stop wrote %s again (first was %d bytes)", name, before.Size())
	}
	if len(s.Files()) != 1 {
		t.Errorf("Files() = %q after two Stops, want one file", s.Files())
	}
}

// TestNothingSelected checks that Start with no kinds and no environment
// writes nothing and reports nothing.
func TestNothingSelected(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv(collect.EnvProfile, "")
	var log bytes.Buffer
	s := collect.Start(collect.Log(&log))
	if err := s.Stop(); err != nil || log.Len() != 0 || len(s.Files()) != 0 {
		t.Errorf("Stop() = %v, log %q, files %q; want nothing at all", err, log.String(), s.Files())
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("wrote %q", names)
	}
}

// TestEnvWins checks that PERFLAB_PROFILE replaces the kinds chosen in
// code, and FromEnv reports the same choice.
func TestEnvWins(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(collect.EnvProfile, "goroutine")
	t.Setenv(collect.EnvProfileDir, dir)
	if opts, err := collect.FromEnv(); err != nil || len(opts) != 2 {
		t.Fatalf("FromEnv() = %d options, %v; want kinds and directory", len(opts), err)
	}
	s := collect.Start(collect.Profiles(collect.ThreadCreate), collect.Dir(t.TempDir()))
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != "goroutine.pprof" {
		t.Errorf("environment dir holds %q, want goroutine.pprof", names)
	}
}

// TestSameFileTwice checks two kinds sent to one file: the second is
// refused rather than overwriting the first.
func TestSameFileTwice(t *testing.T) {
	name := filepath.Join(t.TempDir(), "p.pprof")
	var log bytes.Buffer
	s := collect.Start(collect.File(collect.Goroutine, name), collect.File(collect.ThreadCreate, name),
		collect.Log(&log), collect.IgnoreEnv(), collect.NoSignals())
	err := s.Stop()
	if err == nil || !strings.Contains(err.Error(), "threadcreate profile: "+name+" is already the goroutine profile's file") {
		t.Errorf("Stop() = %v, want the threadcreate profile refused", err)
	}
	if p := load(t, name); p.SampleType[0].Type != "goroutine" {
		t.Errorf("%s holds a %s profile, want goroutine", name, p.SampleType[0].Type)
	}
}
