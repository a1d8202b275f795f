package web

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/perflab/perflab/report"
)

// extraAPIs are the endpoints of the views built on other packages.
func (s *Server) extraAPIs() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"/ui/api/graph.svg": s.api("graph", s.graphSVG),
	}
}

func (s *Server) fillFlame(o report.Options, q url.Values, d *pageData) error {
	return errors.New("flame graph: not yet available")
}

// fillSandwich shows the callers and callees of the function sw (a
// regexp, as the menu writes it: ^name$) beside the self/total table of
// every function, from which another can be picked.
func (s *Server) fillSandwich(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = q.Get("sw")
	if err := s.fillTop(o, q, d); err != nil {
		return err
	}
	if d.Symbol == "" {
		d.Warnings = append(d.Warnings, "Pick a function: click a row of the table, then Refine > sandwich.")
		return nil
	}
	return errors.New("sandwich: not yet available")
}
