package graph

import (
	"embed"
	"io"
	"io/fs"
	"strings"
)

//go:embed assets/graph.js
var assets embed.FS

// Assets returns the graph's browser assets: graph.js, which adds pan
// (drag), zoom (wheel, double click to reset) and a "perflab-node" event
// on node clicks to every svg.perflab-graph of a page.
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded directory exists
	}
	return sub
}

// WriteInteractiveSVG is WriteSVG with graph.js embedded, as pprof's -svg
// embeds its pan and zoom script: opened on its own in a browser, the
// graph pans and zooms.
func WriteInteractiveSVG(w io.Writer, g *Graph) error {
	js, err := fs.ReadFile(assets, "assets/graph.js")
	if err != nil {
		return err
	}
	var b strings.Builder
	if err := WriteSVG(&b, g); err != nil {
		return err
	}
	s := b.String()
	i := strings.LastIndex(s, "</svg>")
	_, err = io.WriteString(w, s[:i]+"<script type=\"text/javascript\"><![CDATA[\n"+string(js)+"]]></script>\n"+s[i:])
	return err
}
