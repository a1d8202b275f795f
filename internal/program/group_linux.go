package program

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// parentDeathSignal kills the program if perflab dies first, so that it
// is never left running as an orphan.
func parentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// liveMember reports whether a process of group pgid is alive: not a
// zombie, which an init that does not reap (as in some containers) would
// keep in the group for ever.
func liveMember(pgid int) bool {
	d, err := os.Open("/proc")
	if err != nil {
		return true
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	want := []byte(" " + strconv.Itoa(pgid) + " ")
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: the command may hold spaces.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || len(b) < i+4 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) > 3 && f[0][0] != 'Z' && f[0][0] != 'X' && bytes.Equal(append(append([]byte(" "), f[2]...), ' '), want) {
			return true
		}
	}
	return false
}
