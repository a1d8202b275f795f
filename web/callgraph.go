package web

import (
	"bytes"
	"html/template"
	"net/url"

	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/report"
)

// graphSVG answers the call graph of o as SVG: the nodes and edges of
// "go tool pprof -dot" (report.CallGraph), laid out and drawn by package
// graph, no Graphviz.
func (s *Server) graphSVG(o report.Options, _ url.Values) (answer, error) {
	return s.cached("graph", o, "", func(o report.Options) (answer, error) {
		g, err := report.CallGraph(s.p, o) // reports leave p as it is
		if err != nil {
			return answer{}, err
		}
		var buf bytes.Buffer
		if err := graph.WriteSVG(&buf, g); err != nil {
			return answer{}, err
		}
		return answer{body: buf.Bytes(), contentType: "image/svg+xml"}, nil
	})
}

// fillGraph inlines the SVG in the page, where graph.js pans, zooms and
// selects its nodes (their data-name attributes). Package graph escapes
// every string it writes into the SVG.
func (s *Server) fillGraph(o report.Options, q url.Values, d *pageData) error {
	a, err := s.graphSVG(o, q)
	if err != nil {
		return err
	}
	d.Warnings = append(d.Warnings, a.warnings...)
	d.Graph = template.HTML(a.body)
	if len(a.body) == 0 {
		d.Warnings = append(d.Warnings, "the graph drawing is not available yet")
	}
	d.Script = "/ui/assets/graph.js"
	return nil
}
