//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Misbehaving programs, each of which leaves a child (its PID in
// $PIDFILE) in its process group.
const (
	ignoresTerm = `trap "" TERM INT; sleep 300 & echo $! > $PIDFILE; wait`
	forksChild  = `sleep 300 & echo $! > $PIDFILE; wait`
	exitsEarly  = `sh -c 'trap "" TERM; echo $$ > $PIDFILE; while :; do sleep 1; done' & sleep 0.3; exit 3`
)

// exitProg exits with status 3 after a GC, for the go run and go test
// forms; its test is TestExit.
const exitProg = `package main

import (
	"os"
	"runtime"
)

func main() { runtime.GC(); os.Exit(3) }
`

const exitTest = `package p

import (
	"os"
	"testing"
)

func TestExit(t *testing.T) { os.Exit(3) }
`

// TestProgramUnderEveryCommand runs the same misbehaving programs under
// every command that runs one (issue 22 step 1, issue 24 item 12): after
// a Ctrl-C (SIGINT to perflab's process group, as a terminal sends it) or
// the program's own early exit, nothing of the program's group is left,
// and the exit status is the same for the same case. About 30 s: most of
// it the 2 s grace before SIGKILL of the programs that ignore signals.
func TestProgramUnderEveryCommand(t *testing.T) {
	bin := perflab(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "exit.go")
	os.WriteFile(src, []byte(exitProg), 0o644)
	pkg := filepath.Join(dir, "p")
	os.Mkdir(pkg, 0o755)
	os.WriteFile(filepath.Join(pkg, "go.mod"), []byte("module p\n\ngo 1.22\n"), 0o644)
	os.WriteFile(filepath.Join(pkg, "p_test.go"), []byte(exitTest), 0o644)
	port := strconv.Itoa(freeTCPPort(t))
	commands := map[string][]string{
		"gc":          {"gc", "-o", os.DevNull, "--"},
		"sched":       {"sched", "-o", os.DevNull, "--"},
		"trace":       {"trace", "-o", os.DevNull, "--"},
		"goroutines":  {"goroutines", "--"},
		"investigate": {"investigate", "-grace", "1s", "-wait", "20s", "-o", filepath.Join(dir, "run"), "-url", "http://127.0.0.1:" + port + "/", "--"},
	}
	for _, tt := range []struct {
		cmds   []string
		prog   []string
		ctrlC  bool
		status map[string]int // perflab's exit status by command; 1 if absent
	}{
		{[]string{"gc", "sched", "trace", "goroutines", "investigate"}, []string{"sh", "-c", ignoresTerm}, true, map[string]int{"gc": 137, "sched": 137}},
		{[]string{"gc", "trace", "goroutines", "investigate"}, []string{"sh", "-c", forksChild}, true, map[string]int{"gc": 130}},
		{[]string{"gc", "sched", "trace", "goroutines", "investigate"}, []string{"sh", "-c", exitsEarly}, false, map[string]int{"gc": 3, "sched": 3}},
		{[]string{"gc", "trace"}, []string{"go", "run", src}, false, map[string]int{"gc": 3}},
		{[]string{"gc"}, []string{"go", "test", "-run", "TestExit", "."}, false, map[string]int{"gc": 3}},
	} {
		for _, name := range tt.cmds {
			args := append(append([]string{}, commands[name]...), tt.prog...)
			start := time.Now()
			code, child := runMisbehaving(t, bin, pkg, args, tt.ctrlC)
			t.Logf("perflab %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
			want, ok := tt.status[name]
			if !ok {
				want = 1
			}
			if code != want {
				t.Errorf("perflab %s: exit status %d, want %d", strings.Join(args, " "), code, want)
			}
			if child != 0 && processAlive(child) {
				syscall.Kill(child, syscall.SIGKILL)
				t.Errorf("perflab %s: left the program's child %d running", strings.Join(args, " "), child)
			}
		}
	}
}

// runMisbehaving runs perflab with args in dir, in a process group of its own, as
// a shell runs a foreground job; with ctrlC, once the program has written
// its child's PID, it sends SIGINT to that group, as a terminal's Ctrl-C.
// It returns perflab's exit status and the child's PID (0 if none).
func runMisbehaving(t *testing.T, bin, dir string, args []string, ctrlC bool) (int, int) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIDFILE="+pidfile)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second // a program left behind may hold the output
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // perflab's own group, should it hang
	readPid := func() int {
		if b, err := os.ReadFile(pidfile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			return pid
		}
		return 0
	}
	if ctrlC {
		deadline := time.Now().Add(30 * time.Second)
		for readPid() == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if readPid() == 0 {
			t.Fatalf("perflab %s: the program wrote no PID:\n%s", strings.Join(args, " "), out.String())
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Errorf("perflab %s did not end within 20s of the program's end or a Ctrl-C", strings.Join(args, " "))
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	child := readPid()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 0 && code != 137 && code != 130 && code != 3 {
		t.Logf("perflab %s: exit %d:\n%s", strings.Join(args, " "), code, out.String())
	}
	return code, child
}

// processAlive reports whether pid runs; a zombie does not.
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || len(b) < i+3 || (b[i+2] != 'Z' && b[i+2] != 'X')
}
