package timeline_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/timeline"
)

// A trace's tiles, drawn as a page that opens offline.
func ExamplePage() {
	tiler := exectrace.NewTiler(0, time.Second, 100) // fed by exectrace.Read
	page := &timeline.Page{Title: "trace.out", Summary: "1s of trace", Tiles: tiler.Tiles()}
	var b strings.Builder
	if err := page.Render(&b); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Contains(b.String(), "<canvas"), strings.Contains(b.String(), "perflabTimeline.render"))
	// Output: true true
}
