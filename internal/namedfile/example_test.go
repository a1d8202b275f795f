package namedfile_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/namedfile"
)

// A profile that names perflab's own environment as a source file gets
// an error, not the environment.
func ExampleReadFile() {
	_, err := namedfile.ReadFile("/proc/self/environ", 64<<20, "a source file")
	fmt.Println(err)
	// Output:
	// open /proc/self/environ: under /proc, /sys or /dev: never read for input
}
