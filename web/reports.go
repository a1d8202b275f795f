package web

import (
	"bytes"
	"encoding/json"
	"net/url"

	"github.com/perflab/perflab/report"
)

// topJSON answers /ui/api/top: report.GenerateJSON(Top), the rows of
// "perflab top -json" for the same settings.
func (s *Server) topJSON(o report.Options, _ url.Values) (answer, error) {
	return s.cached("top", o, "", func(o report.Options) (answer, error) {
		var buf bytes.Buffer
		err := report.GenerateJSON(&buf, s.p, report.Top, o)
		return answer{body: buf.Bytes(), contentType: "application/json"}, err
	})
}

// peekJSON answers /ui/api/peek: the callers and callees of the functions
// matching the focus regexp, as "perflab peek -json".
func (s *Server) peekJSON(o report.Options, q url.Values) (answer, error) {
	sym := symbol(q)
	if sym == "" {
		sym = "."
	}
	return s.cached("peek", o, sym, func(o report.Options) (answer, error) {
		o.Symbol = sym
		var buf bytes.Buffer
		err := report.GenerateJSON(&buf, s.p, report.Peek, o)
		return answer{body: buf.Bytes(), contentType: "application/json"}, err
	})
}

// decodeReport decodes a JSON answer into d's field, with its warnings.
func decodeReport(a answer, d *pageData) (*report.JSONReport, error) {
	var r report.JSONReport
	d.Warnings = append(d.Warnings, a.warnings...)
	return &r, json.Unmarshal(a.body, &r)
}

func (s *Server) fillTop(o report.Options, q url.Values, d *pageData) error {
	a, err := s.topJSON(o, q)
	if err != nil {
		return err
	}
	d.Top, err = decodeReport(a, d)
	return err
}

func (s *Server) fillPeek(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = symbol(q)
	a, err := s.peekJSON(o, q)
	if err != nil {
		return err
	}
	d.Peek, err = decodeReport(a, d)
	return err
}
