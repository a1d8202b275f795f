package benchgen_test

import (
	"fmt"
	"os"

	"github.com/perflab/perflab/internal/benchgen"
)

// Write an input of at least 100 bytes with a new configuration key
// before each result.
func ExampleManyKeys() {
	n, err := benchgen.ManyKeys(os.Stdout, 100)
	fmt.Println(n, "results", err)
	// Output:
	// key0: value
	// BenchmarkX-8 	 100 	 100 ns/op 	 16 B/op 	 1 allocs/op
	// key1: value
	// BenchmarkX-8 	 100 	 101 ns/op 	 16 B/op 	 1 allocs/op
	// 2 results <nil>
}
