//go:build !unix

package program

import (
	"os"
	"os/exec"
)

// Terminate is the only signal there is to send: a kill.
var Terminate = os.Kill

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup stops the program itself: without process groups or
// SIGTERM, any stop signal is a kill (Windows delivers no interrupt).
func signalGroup(p *os.Process, sig os.Signal) { p.Kill() }

// groupAlive is false: there is no group to look after.
func groupAlive(*os.Process) bool { return false }
