//go:build unix && !linux

package investigate

import "syscall"

func setParentDeathSignal(*syscall.SysProcAttr) {}
