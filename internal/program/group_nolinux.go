//go:build unix && !linux

package program

import "syscall"

func parentDeathSignal(*syscall.SysProcAttr) {}

// liveMember is true: kill(-pgid, 0) already found a member.
func liveMember(int) bool { return true }
