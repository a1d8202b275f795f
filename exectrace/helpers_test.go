package exectrace_test

import (
	osexec "os/exec"
	"strconv"
)

func exec(name string, args ...string) ([]byte, error) {
	return osexec.Command(name, args...).CombinedOutput()
}

func itoa(n int) string { return strconv.Itoa(n) }
