package clickhousetest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// setProcAttr puts the server in a process group of its own, and has the
// kernel kill it when the test binary dies without cleaning up (a test
// timeout's panic, a SIGKILL). The kernel sends that signal when the
// thread that started the server ends, and Go ends no thread that no
// goroutine locked.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the server's process group.
func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// RSS returns the server's resident memory in bytes, as /proc tells it.
func (s *Server) RSS() (int64, bool) {
	pid := s.PID()
	if pid == 0 {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// tempRoot is where servers keep their data: /dev/shm, a tmpfs, when the
// process may write there, since ClickHouse creates a directory of files
// for each insert, which costs on a disk (the store's tests take a third
// of the time there); the temporary directory otherwise.
func tempRoot() string {
	const shm = "/dev/shm"
	if unix.Access(shm, unix.W_OK) == nil {
		return shm
	}
	return os.TempDir()
}

// userHZ is the unit of /proc's CPU times: USER_HZ, 100 on every
// architecture Go runs Linux on.
const userHZ = 100

// CPU returns the user and system CPU time the server has used, as
// /proc/PID/stat tells it (in hundredths of a second).
func (s *Server) CPU() (time.Duration, bool) {
	pid := s.PID()
	if pid == 0 {
		return 0, false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command, in parentheses, may hold spaces: the fields after it
	// are state, ppid, ..., utime (the 14th field) and stime (15th).
	_, rest, ok := strings.Cut(string(b), ") ")
	fields := strings.Fields(rest)
	if !ok || len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * time.Second / userHZ, true
}
