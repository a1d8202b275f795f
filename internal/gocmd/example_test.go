package gocmd_test

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/gocmd"
)

// A build of code a profile names gets only the variables it needs and
// settings that keep it from downloading, rewriting go.mod or running git.
func ExampleCmd_Environ() {
	c := gocmd.Cmd{
		Dir:    "/nonexistent",
		Env:    []string{"PATH=/usr/bin", "PERFLAB_TOKEN=t0ken", "GOFLAGS=-mod=mod"},
		Origin: gocmd.Input,
	}
	fmt.Println(strings.Join(c.Environ(), "\n"))
	// Output:
	// PATH=/usr/bin
	// GOTOOLCHAIN=local
	// GOPROXY=off
	// GOFLAGS=-mod=readonly -buildvcs=false
}
