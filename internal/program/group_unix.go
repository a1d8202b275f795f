//go:build unix

package program

import (
	"os"
	"os/exec"
	"syscall"
)

// Terminate is the signal that asks a program to end: SIGTERM.
var Terminate os.Signal = syscall.SIGTERM

// ownGroup starts the program in a process group of its own, so that a
// stop reaches its children too, and the terminal's Ctrl-C reaches perflab
// alone, which passes it on once.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to every process of p's group.
func signalGroup(p *os.Process, sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(-p.Pid, s)
	}
}

// groupAlive reports whether any process of p's group is left.
func groupAlive(p *os.Process) bool {
	return syscall.Kill(-p.Pid, 0) == nil && liveMember(p.Pid)
}
