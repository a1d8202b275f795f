package exectrace

import (
	"github.com/perflab/perflab/internal/htmlpage"
	"html/template"
	"io"
)

// A TimelinePage is a self-contained HTML page drawing Tiles with the
// canvas timeline of Assets: one file that opens offline.
type TimelinePage struct {
	Title   string
	Summary string // preformatted text shown under the timeline
	Tiles   *Tiles
	Spans   []Span // tasks and regions drawn as bars
}

var timelineTemplate = template.Must(template.ParseFS(assets, "assets/timeline.html"))

// Render writes the page. Everything from the trace is escaped.
func (p *TimelinePage) Render(w io.Writer) error {
	script := htmlpage.Text(assets, "assets/timeline.js")
	return htmlpage.Render(w, timelineTemplate, struct {
		Title, Summary string
		Tiles          *Tiles
		Spans          []Span
		Script         template.JS
	}{p.Title, p.Summary, p.Tiles, p.Spans, template.JS(script)}) // the script is perflab's own
}
