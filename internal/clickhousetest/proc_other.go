//go:build !unix

package clickhousetest

import (
	"os"
	"os/exec"
	"time"
)

func setProcAttr(cmd *exec.Cmd) {}

// killGroup kills the server's process.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// CPU is not measured outside Linux.
func (s *Server) CPU() (time.Duration, bool) { return 0, false }

// RSS is not measured outside Linux.
func (s *Server) RSS() (int64, bool) { return 0, false }

// tempRoot is where servers keep their data: the temporary directory.
func tempRoot() string { return os.TempDir() }
