package investigate

import "syscall"

// setParentDeathSignal kills the program if perflab dies first, so that
// it is never left running as an orphan.
func setParentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
