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

func (s *Server) fillSandwich(o report.Options, q url.Values, d *pageData) error {
	return errors.New("sandwich: not yet available")
}
