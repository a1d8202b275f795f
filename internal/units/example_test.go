package units_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/units"
)

func ExampleLabel() {
	fmt.Println(units.Label(1500000, "nanoseconds", "minimum"))
	fmt.Println(units.Label(3<<20, "bytes", "kB"))
	// Output:
	// 1.50ms
	// 3072kB
}
