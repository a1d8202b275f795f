package flame

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"github.com/perflab/perflab/internal/htmlpage"
	"html/template"
	"io"
	"io/fs"
)

//go:embed js
var assets embed.FS

// Assets returns the files a browser needs to draw flame graphs, for a
// web UI to serve: flame.js (an ES module; its API is documented at its
// top) and flame.css.
func Assets() fs.FS { return htmlpage.Sub(assets, "js") }

func asset(name string) string { return htmlpage.Text(assets, "js/"+name) }

var (
	fragmentTemplate = template.Must(template.New("fragment.html").ParseFS(assets, "js/fragment.html"))
	pageTemplate     = template.Must(template.New("page.html").ParseFS(assets, "js/page.html"))
)

// MaxHTMLBytes bounds the data WriteHTML and WriteFragment inline: they
// drop the narrowest frames until the views fit.
const MaxHTMLBytes = 1_800_000

// StaticMinWidth is the narrowest frame a static page keeps, as a fraction
// of the whole graph, when HTMLOptions.Query sets none: a quarter of
// DefaultMinWidth, so that zooming in a page with no server behind it
// still shows detail; MaxHTMLBytes bounds the page whatever the profile.
const StaticMinWidth = DefaultMinWidth / 4

// HTMLOptions set up a static flame graph.
type HTMLOptions struct {
	Title  string   // the page's title
	Legend []string // lines shown above the graph, e.g. the profile's labels
	// ID is the id of the graph's element, "perflab-flame" if empty; give
	// each fragment of a page its own.
	ID string
	// Query is the initial view: its Path, Search and Sandwich are applied
	// in the browser; MinWidth (default StaticMinWidth) and MaxFrames
	// bound the inlined frames.
	Query Query
	// Orientation is "icicle" (root on top, the default) or "flame".
	Orientation string
	// BaseName names the base profile of a diff: the graph's legend and
	// the page's heading say what it is compared with.
	BaseName string
}

// WriteHTML writes a self-contained HTML page drawing t's flame graph:
// flame.js, flame.css and the views inlined, at most about 2 MB whatever
// the profile (see MaxHTMLBytes). It renders into memory first, so w gets
// a whole page or nothing.
func WriteHTML(w io.Writer, t *Tree, o HTMLOptions) error {
	var frag bytes.Buffer
	if err := WriteFragment(&frag, t, o); err != nil {
		return err
	}
	data := struct {
		Title, Legend, Base string
		Fragment            template.HTML
	}{o.Title, joinLines(o.Legend), "", template.HTML(frag.String())}
	if t.Diff {
		data.Base = o.BaseName
		if data.Base == "" {
			data.Base = "a base profile"
		}
	}
	return htmlpage.Render(w, pageTemplate, data)
}

// WriteFragment writes t's flame graph as a fragment of a larger HTML
// page (a style element, the graph's element and two script elements),
// as WriteHTML embeds it. Each fragment of a page needs its own o.ID.
func WriteFragment(w io.Writer, t *Tree, o HTMLOptions) error {
	if o.ID == "" {
		o.ID = "perflab-flame"
	}
	views, err := staticViews(t, o.Query)
	if err != nil {
		return err
	}
	opts, err := json.Marshal(map[string]any{"orientation": o.Orientation, "query": jsQuery(o.Query), "baseName": o.BaseName})
	if err != nil {
		return err
	}
	data := struct {
		ID, DataID string
		CSS        template.CSS
		JS, Data   template.JS
		Opts       template.JS
	}{o.ID, o.ID + "-data", template.CSS(asset("flame.css")), template.JS(asset("flame.js")),
		template.JS(views), template.JS(opts)}
	return htmlpage.Render(w, fragmentTemplate, data)
}

// staticViews returns the JSON of {view, reverse}: the whole tree's view
// and, in a diff, the base-shaped one, with the narrowest frames dropped
// until it fits in MaxHTMLBytes.
func staticViews(t *Tree, q Query) ([]byte, error) {
	base := Query{MinWidth: q.MinWidth, MaxFrames: q.MaxFrames, MaxDepth: q.MaxDepth}
	if base.MinWidth == 0 {
		base.MinWidth = StaticMinWidth
	}
	if base.MaxFrames == 0 {
		base.MaxFrames = DefaultMaxFrames
	}
	views := map[string]*View{"view": nil, "reverse": nil}
	var err error
	if views["view"], err = t.View(base); err != nil {
		return nil, err
	}
	if t.Diff {
		base.Reverse = true
		if views["reverse"], err = t.View(base); err != nil {
			return nil, err
		}
	}
	for {
		b, err := json.Marshal(views) // escapes <, > and &
		if err != nil {
			return nil, err
		}
		n := len(views["view"].Frames)
		if len(b) <= MaxHTMLBytes || n < 100 {
			return b, nil
		}
		// Drop the narrowest frames, in proportion to the excess: the
		// bytes per frame hardly depend on which frames are kept.
		keep := int(float64(n) * MaxHTMLBytes / float64(len(b)) * 0.95)
		for _, v := range views {
			if v != nil {
				v.trim(keep)
			}
		}
	}
}

// jsQuery is q as flame.js reads it.
func jsQuery(q Query) map[string]any {
	path := q.Path
	if path == nil {
		path = []string{}
	}
	return map[string]any{"path": path, "search": q.Search, "sandwich": q.Sandwich,
		"reverse": q.Reverse, "normalize": q.Normalize}
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprint(&b, l)
	}
	return b.String()
}
