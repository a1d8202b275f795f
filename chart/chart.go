package chart

import (
	"embed"
	"encoding/json"
	"github.com/perflab/perflab/internal/htmlpage"
	"html/template"
	"io"
	"io/fs"
	"math"
	"strconv"
)

// Units of axis values; they decide how ticks and legend values read.
const (
	Bytes   = "bytes"
	Seconds = "seconds"
	Percent = "percent"
	Count   = ""
)

// Styles of series.
const (
	Line   = "line"
	Points = "points"
	Bars   = "bars"
)

// A Chart is one plot: series of y values over a shared x axis. Its JSON
// form is the spec perflab-chart.js draws.
type Chart struct {
	Title  string   `json:"title"`
	XLabel string   `json:"xLabel"`
	YLabel string   `json:"yLabel"`
	XUnit  string   `json:"xUnit"` // one of the unit constants
	Unit   string   `json:"unit"`  // unit of the y values
	X      Values   `json:"x"`     // ascending
	Series []Series `json:"series"`
}

// A Series is one line (or set of points or bars) of a chart.
type Series struct {
	Label string `json:"label"`
	Style string `json:"style,omitempty"` // Line (default), Points or Bars
	Color string `json:"color,omitempty"` // CSS color; empty picks from a palette
	Y     Values `json:"y"`               // one per X; NaN leaves a gap
}

// Values are chart numbers. They encode to JSON with NaN and infinities
// as null, which the charts draw as gaps.
type Values []float64

// MarshalJSON implements json.Marshaler.
func (v Values) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+8*len(v))
	b = append(b, '[')
	for i, f := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			b = append(b, "null"...)
			continue
		}
		format := byte('f') // as encoding/json writes numbers
		if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
			format = 'g'
		}
		b = strconv.AppendFloat(b, f, format, -1, 64)
	}
	return append(b, ']'), nil
}

// A Page is one HTML document of charts.
type Page struct {
	Title   string
	Summary string // preformatted text shown above the charts
	Charts  []Chart
}

//go:embed assets
var assets embed.FS

// Assets returns the files a browser needs to draw charts: uPlot.iife.min.js,
// uPlot.min.css and perflab-chart.js, for a web UI to serve.
func Assets() fs.FS { return htmlpage.Sub(assets, "assets") }

// UPlotVersion is the version of the vendored uPlot.
const UPlotVersion = "1.6.32"

var pageTemplate = template.Must(template.ParseFS(assets, "assets/page.html"))

// Render writes the page as one self-contained HTML document. It renders
// into memory first, so that w gets a whole page or nothing.
func (p *Page) Render(w io.Writer) error {
	specs, err := json.Marshal(p.Charts) // escapes <, > and & too
	if err != nil {
		return err
	}
	if p.Charts == nil {
		specs = []byte("[]")
	}
	data := struct {
		Title, Summary, UPlotVersion string
		UPlotCSS                     template.CSS
		UPlotJS, ChartJS, Specs      template.JS
	}{
		Title: p.Title, Summary: p.Summary, UPlotVersion: UPlotVersion,
		UPlotCSS: template.CSS(asset("uPlot.min.css")),
		UPlotJS:  template.JS(asset("uPlot.iife.min.js")),
		ChartJS:  template.JS(asset("perflab-chart.js")),
		Specs:    template.JS(specs),
	}
	return htmlpage.Render(w, pageTemplate, data)
}

func asset(name string) string { return htmlpage.Text(assets, "assets/"+name) }
