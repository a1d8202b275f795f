package scrape_test

import (
	"fmt"

	"github.com/perflab/perflab/scrape"
)

// A -scrape flag names a job and its targets; the rest takes the
// defaults: every 15 s, the cpu, allocs and goroutine profiles.
func ExampleParseSpec() {
	j, err := scrape.ParseSpec("checkout=127.0.0.1:6060,127.0.0.1:6061")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(j.Name, j.Static[0].Targets, j.Interval)
	for _, k := range j.Kinds {
		fmt.Print(k.Short, " ")
	}
	fmt.Println()
	// Output:
	// checkout [127.0.0.1:6060 127.0.0.1:6061] 15s
	// cpu allocs goroutine
}
