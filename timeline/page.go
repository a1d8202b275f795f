package timeline

import (
	"embed"
	"html/template"
	"io"
	"io/fs"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/htmlpage"
)

//go:embed assets
var assets embed.FS

// Assets returns the files a browser needs to draw exectrace.Tiles:
// timeline.js, whose perflabTimeline.render(canvas, tiles, options) draws
// the JSON form of Tiles on a canvas, for a web UI to serve.
func Assets() fs.FS { return htmlpage.Sub(assets, "assets") }

// Script returns timeline.js, for a self-contained page that inlines it.
// It is perflab's own code, never input.
func Script() template.JS { return template.JS(htmlpage.Text(assets, "assets/timeline.js")) }

// A Page is a self-contained HTML page drawing exectrace.Tiles with the
// canvas timeline of Assets: one file that opens offline.
type Page struct {
	Title   string
	Summary string // preformatted text shown under the timeline
	Tiles   *exectrace.Tiles
	Spans   []exectrace.Span // tasks and regions drawn as bars
}

var pageTemplate = template.Must(template.ParseFS(assets, "assets/timeline.html"))

// Render writes the page. Everything from the trace is escaped.
func (p *Page) Render(w io.Writer) error {
	return htmlpage.Render(w, pageTemplate, struct {
		Title, Summary string
		Tiles          *exectrace.Tiles
		Spans          []exectrace.Span
		Script         template.JS
	}{p.Title, p.Summary, p.Tiles, p.Spans, Script()})
}
