//go:build unix && !linux

package clickhousetest

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// setProcAttr puts the server in a process group of its own.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the server's process group.
func killGroup(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// CPU is not measured outside Linux.
func (s *Server) CPU() (time.Duration, bool) { return 0, false }

// RSS is not measured outside Linux.
func (s *Server) RSS() (int64, bool) { return 0, false }

// tempRoot is where servers keep their data: the temporary directory.
func tempRoot() string { return os.TempDir() }
