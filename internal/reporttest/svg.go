package reporttest

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
)

// SVGNodeNames parses svg, a call graph drawn by package graph, as XML and
// returns the data-name attributes of its elements (the nodes' full
// names), failing t if svg is not well-formed.
func SVGNodeNames(t testing.TB, svg []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	var names []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == "data-name" {
					names = append(names, a.Value)
				}
			}
		}
	}
}
