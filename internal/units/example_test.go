package units_test

import (
	"fmt"
	"time"

	"github.com/perflab/perflab/internal/units"
)

func ExampleLabel() {
	fmt.Println(units.Label(1500000, "nanoseconds", "minimum"))
	fmt.Println(units.Label(3<<20, "bytes", "kB"))
	// Output:
	// 1.50ms
	// 3072kB
}

func ExampleBytes() {
	fmt.Println(units.Bytes(1536))
	fmt.Println(units.ExactBytes(64 << 20))
	fmt.Println(units.Duration(45620 * time.Microsecond))
	// Output:
	// 1.5 kB
	// 64 MiB
	// 45.6ms
}
