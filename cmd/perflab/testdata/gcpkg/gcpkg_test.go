// Package gcpkg is a test package that perflab gc's tests run with
// "perflab gc -- go test": its TestMain prints how many GCs the test
// binary ran, so that the summary can be checked to hold those and no
// others (the go command's, the compiler's, the linker's).
package gcpkg

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

var sink []byte

func TestMain(m *testing.M) {
	code := m.Run()
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	fmt.Printf("gcpkg: numgc=%d\n", st.NumGC)
	os.Exit(code)
}

// TestAlloc makes garbage enough for a few dozen GCs and says where it ran.
func TestAlloc(t *testing.T) {
	for i := 0; i < 200000; i++ {
		sink = make([]byte, 1024)
	}
	wd, _ := os.Getwd()
	fmt.Printf("gcpkg: dir=%s\n", wd)
}

// TestNotRun fails: perflab must pass -run through to the test binary.
func TestNotRun(t *testing.T) {
	t.Fatal("-run was not passed to the test binary")
}
