package investigate_test

import (
	"context"
	"fmt"
	"time"

	"github.com/perflab/perflab/investigate"
	"github.com/perflab/perflab/loadgen"
)

// Investigate a server: start it, load it for five seconds from eight
// connections, and print the headline and the first finding.
func Example() {
	rep, err := investigate.Run(context.Background(), investigate.Options{
		Program: "./rsssearch",
		Args:    []string{"-variant=naive", "-addr=127.0.0.1:5000", "-debug-addr=127.0.0.1:6060"},
		URLs:    []string{"http://127.0.0.1:5000/search?term=covid-19&cnn=on&bbc=on&nyt=on"},
		Pprof:   "http://127.0.0.1:6060/debug/pprof/",
		Load:    loadgen.Config{Method: "POST", C: 8, Duration: 5 * time.Second},
		Dir:     "naive",
	})
	if err != nil {
		fmt.Println(err)
	}
	if rep != nil {
		fmt.Println(rep.Headline)
		if len(rep.Findings) > 0 {
			fmt.Println(rep.Findings[0].Title)
		}
	}
}
