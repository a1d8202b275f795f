package tracefreq_test

import (
	"fmt"

	"github.com/perflab/perflab/examples/tracefreq"
)

// Search ten generated documents with one goroutine per P.
func Example() {
	docs := tracefreq.Generate(10, "president")
	fmt.Println(tracefreq.FindNumCPU("president", docs), "of", tracefreq.Expected(10))
	// Output: 70 of 70
}
