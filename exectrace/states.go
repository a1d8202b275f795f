package exectrace

import (
	"strings"

	"golang.org/x/exp/trace"
)

// A State is what a goroutine is doing, as the summary counts its time.
type State int

// The states, in the order the summary lists them.
const (
	Running  State = iota // running on a P
	Runnable              // ready, waiting for a P
	Sync                  // blocked on a mutex, WaitGroup, Cond or other sync primitive
	Chan                  // blocked sending or receiving on a channel
	Select                // blocked in select
	Net                   // blocked on the network poller
	Syscall               // in a system call
	Sleep                 // in time.Sleep
	GCAssist              // helping the GC mark, or waiting for it to end
	Other                 // any other wait: idle runtime goroutines, select{}, ...
	numStates
)

// stateInfo is the one table of states: JSON key and words for the text.
var stateInfo = [numStates]struct {
	key, words string
}{
	Running:  {"running", "running"},
	Runnable: {"runnable", "runnable, waiting for a P"},
	Sync:     {"sync", "blocked on sync (mutex, WaitGroup, Cond)"},
	Chan:     {"chan", "blocked on a channel"},
	Select:   {"select", "blocked in select"},
	Net:      {"net", "blocked on the network"},
	Syscall:  {"syscall", "in system calls"},
	Sleep:    {"sleep", "sleeping"},
	GCAssist: {"gc_assist", "assisting the GC"},
	Other:    {"other", "other waits (idle runtime goroutines, select{})"},
}

// String returns the state's JSON key, such as "gc_assist".
func (s State) String() string {
	if s < 0 || s >= numStates {
		return "invalid"
	}
	return stateInfo[s].key
}

// blocking reports whether time in s is kept by stack for the top stacks.
func (s State) blocking() bool { return s != Running && s != GCAssist && s != Other }

// stateOf classifies a goroutine state with its reason.
func stateOf(st trace.GoState, reason string, assist bool) (State, bool) {
	switch st {
	case trace.GoRunning:
		if assist {
			return GCAssist, true
		}
		return Running, true
	case trace.GoRunnable:
		return Runnable, true
	case trace.GoSyscall:
		return Syscall, true
	case trace.GoWaiting:
		return waitState(reason), true
	}
	return 0, false
}

// waitState classifies the reason a goroutine waits, as the runtime names
// it (traceBlockReasonStrings in runtime/traceruntime.go).
func waitState(reason string) State {
	switch {
	case reason == "network":
		return Net
	case reason == "select":
		return Select
	case strings.HasPrefix(reason, "chan "):
		return Chan
	case strings.Contains(reason, "sync") && reason != "synctest":
		return Sync
	case reason == "sleep":
		return Sleep
	case reason == "GC mark assist wait for work", reason == "wait until GC ends":
		return GCAssist
	}
	return Other
}
