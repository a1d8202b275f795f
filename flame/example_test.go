package flame_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/report"
)

// smallProfile is a CPU profile of three stacks: main calls work, which
// calls parse twice as often as it runs itself.
func smallProfile() *profile.Profile {
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: "/src/main.go", StartLine: int64(10 * id)}
	}
	fns := []*profile.Function{fn(1, "main.main"), fn(2, "main.work"), fn(3, "encoding/json.parse")}
	var locs []*profile.Location
	for i, f := range fns {
		locs = append(locs, &profile.Location{ID: uint64(i + 1), Address: uint64(0x1000 * (i + 1)), Line: []profile.Line{{Function: f, Line: f.StartLine + 1}}})
	}
	sample := func(v int64, ls ...*profile.Location) *profile.Sample {
		return &profile.Sample{Value: []int64{v}, Location: ls}
	}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function:   fns, Location: locs,
		Sample: []*profile.Sample{
			sample(100, locs[1], locs[0]),
			sample(200, locs[2], locs[1], locs[0]),
			sample(50, locs[0]),
		},
	}
}

// smallTree is the tree of smallProfile, for tests.
func smallTree(t testing.TB) *flame.Tree {
	tree, err := flame.Build(smallProfile(), report.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func ExampleTree_View() {
	t, err := flame.Build(smallProfile(), report.DefaultOptions())
	if err != nil {
		log.Fatal(err)
	}
	v, err := t.View(flame.Query{Search: "json"})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range v.Frames {
		fmt.Printf("%*s%s cum=%d self=%d offset=%d matched=%v\n", 2*f.Depth, "", f.Name, f.Cum, f.Self, f.Offset, f.Matched)
	}
	fmt.Printf("search matched %d of %d\n", v.SearchValue, v.RootValue)
	// Output:
	// root cum=350 self=0 offset=0 matched=false
	//   main.main cum=350 self=50 offset=0 matched=false
	//     main.work cum=300 self=100 offset=0 matched=false
	//       encoding/json.parse cum=200 self=200 offset=0 matched=true
	// search matched 200 of 350
}
