package profgen_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/profgen"
)

func ExampleGenerate() {
	c := profgen.Config{Seed: 7, Samples: 1000, Locations: 500, Functions: 100, MaxDepth: 20,
		SourceRoot: "/src"}
	p, err := profgen.Generate(c)
	if err != nil {
		panic(err)
	}
	root := p.Sample[0].Location[len(p.Sample[0].Location)-1]
	fmt.Println(len(p.Sample), len(p.Location), len(p.Function), root.Line[0].Function.Name)
	// Output: 1000 500 100 runtime.goexit
}
