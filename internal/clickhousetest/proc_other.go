//go:build !unix

package clickhousetest

import "os/exec"

func setProcAttr(cmd *exec.Cmd) {}

// killGroup kills the server's process.
func killGroup(cmd *exec.Cmd) { cmd.Process.Kill() }

// RSS is not measured outside Linux.
func (s *Server) RSS() (int64, bool) { return 0, false }
