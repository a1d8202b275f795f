//go:build !unix

package investigate

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

// terminate asks the program to stop; without process groups and SIGTERM
// this is an interrupt, which Windows does not deliver, so kill follows
// after the grace period.
func terminate(cmd *exec.Cmd) { cmd.Process.Signal(os.Interrupt) }

func kill(cmd *exec.Cmd) { cmd.Process.Kill() }
