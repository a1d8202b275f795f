//go:build unix

package program

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script runs sh -c text with $PIDFILE set to a file the test reads.
func script(t *testing.T, text string) (Config, string) {
	pidfile := filepath.Join(t.TempDir(), "pid")
	return Config{Argv: []string{"sh", "-c", text}, Setenv: []string{"PIDFILE=" + pidfile}, Grace: 300 * time.Millisecond}, pidfile
}

// childPid waits for the script to write its child's PID.
func childPid(t *testing.T, pidfile string) int {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(pidfile); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return pid
			}
		}
	}
	t.Fatal("the script did not write its child's PID")
	return 0
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no procfs: kill(0) is all there is
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || len(b) < i+3 || (b[i+2] != 'Z' && b[i+2] != 'X')
}

// The misbehaving programs: each leaves a child in its process group.
var misbehaving = []struct {
	name, script string
	stop         bool // stop it (SIGTERM) rather than let it exit
	status       int
	killed       bool
}{
	{"ignores SIGTERM", `trap "" TERM; sleep 300 & echo $! > $PIDFILE; wait`, true, 128 + 9, true},
	{"forks a child", `sleep 300 & echo $! > $PIDFILE; wait`, true, 128 + 15, false},
	{"exits early", `sleep 300 & echo $! > $PIDFILE; exit 3`, false, 3, false},
	// The leader waits for its child's PID, written once its trap is set:
	// a group stopped earlier would take the child before it could.
	{"child ignores SIGTERM", `sh -c 'trap "" TERM; echo $$ > $PIDFILE; while :; do sleep 1; done' & until [ -s $PIDFILE ]; do sleep 0.01; done; exit 0`, false, 0, false},
}

// TestNothingLeft runs each misbehaving program and checks the one
// policy: its status mapped one way and nothing of its group left. About
// a second in all.
func TestNothingLeft(t *testing.T) {
	for _, tt := range misbehaving {
		t.Run(tt.name, func(t *testing.T) {
			c, pidfile := script(t, tt.script)
			p, err := Start(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			child := childPid(t, pidfile)
			var killed bool
			if tt.stop {
				killed = p.Stop(Terminate)
			}
			status, _, err := p.Wait()
			if err != nil || status != tt.status || killed != tt.killed {
				t.Errorf("status %d, killed %v, %v; want %d, %v", status, killed, err, tt.status, tt.killed)
			}
			if alive(child) {
				syscall.Kill(child, syscall.SIGKILL)
				t.Errorf("child %d left running", child)
			}
		})
	}
}

// TestCtrlC: a done context stops the group with SIGINT, as a Ctrl-C on
// the terminal would have.
func TestCtrlC(t *testing.T) {
	c, pidfile := script(t, `sleep 300 & echo $! > $PIDFILE; wait`)
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Start(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	child := childPid(t, pidfile)
	cancel()
	if status, _, _ := p.Wait(); status != 128+int(syscall.SIGINT) || alive(child) {
		t.Errorf("status %d, child alive %v; want %d and none", status, alive(child), 128+int(syscall.SIGINT))
	}
}

// TestEnvironment: GODEBUG settings merge with the program's own, Setenv
// replaces, and standard output and error reach their writers.
func TestEnvironment(t *testing.T) {
	var out strings.Builder
	p, err := Start(context.Background(), Config{
		Argv:    []string{"sh", "-c", `echo "$GODEBUG $GOTRACEBACK"; echo err >&2`},
		Env:     []string{"PATH=" + os.Getenv("PATH"), "GODEBUG=madvdontneed=1,gctrace=0", "GOTRACEBACK=none"},
		GODEBUG: []string{"gctrace=1"}, Setenv: []string{"GOTRACEBACK=all"}, Stdout: &out, Stderr: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	if status, _, err := p.Wait(); status != 0 || err != nil || out.String() != "madvdontneed=1,gctrace=1 all\nerr\n" {
		t.Errorf("status %d, %v, output %q", status, err, out.String())
	}
}
