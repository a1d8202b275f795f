package chart_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/perflab/perflab/chart"
)

// A page of one chart, and the JSON spec a web UI would hand to
// perflabChart.render.
func Example() {
	c := chart.Chart{
		Title: "Live heap", XLabel: "time", XUnit: chart.Seconds, YLabel: "heap", Unit: chart.Bytes,
		X: chart.Values{0.5, 1.0, 1.5},
		Series: []chart.Series{
			{Label: "live", Y: chart.Values{4 << 20, math.NaN(), 6 << 20}},
		},
	}
	page := &chart.Page{Title: "example", Charts: []chart.Chart{c}}
	if err := page.Render(io.Discard); err != nil { // or a file, or an HTTP response
		fmt.Println(err)
	}
	spec, _ := json.Marshal(c)
	fmt.Println(string(spec))
	// Output:
	// {"title":"Live heap","xLabel":"time","yLabel":"heap","xUnit":"seconds","unit":"bytes","x":[0.5,1,1.5],"series":[{"label":"live","y":[4194304,null,6291456]}]}
}
