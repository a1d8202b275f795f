package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"

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

// A routine is one function's annotated source, as pprof's weblist
// shows it.
type routine struct {
	Header, Summary string
	Lines           []sourceLine
	Note            string // "Error: ..." when the file could not be read
}

type sourceLine struct {
	Flat, Cum string
	Number    int
	Text      string
	Hot       bool // the line has a value
}

// fillSource lists the functions matching the focus regexp with report
// List. The files read are those the profile names, found under the
// server's source_path and trim_path; nothing in the URL names a file.
func (s *Server) fillSource(o report.Options, q url.Values, d *pageData) error {
	d.Symbol = symbol(q)
	if d.Symbol == "" {
		return errors.New("source: choose functions with the focus regexp (Refine > focus, URL parameter f)")
	}
	a, err := s.cached("source", o, d.Symbol, func(o report.Options) (answer, error) {
		o.Symbol = d.Symbol
		var buf bytes.Buffer
		err := report.Generate(&buf, s.p, report.List, o)
		return answer{body: buf.Bytes(), contentType: "text/plain; charset=utf-8"}, err
	})
	if err != nil {
		return err
	}
	d.Warnings = append(d.Warnings, a.warnings...)
	d.Source = parseList(a.body)
	return nil
}

// parseList splits report List's text into routines.
func parseList(text []byte) []routine {
	var out []routine
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "ROUTINE ======================== "); ok {
			out = append(out, routine{Header: name})
			if sc.Scan() {
				out[len(out)-1].Summary = strings.TrimSpace(sc.Text())
			}
			continue
		}
		if len(out) == 0 {
			continue
		}
		r := &out[len(out)-1]
		if len(line) < 29 || line[28] != ':' {
			r.Note = strings.TrimSpace(line)
			continue
		}
		r.Lines = append(r.Lines, parseSourceLine(line))
	}
	return out
}

// parseSourceLine reads "%10s %10s %6d:%s".
func parseSourceLine(line string) sourceLine {
	flat, cum := strings.TrimSpace(line[:10]), strings.TrimSpace(line[11:21])
	num, text, _ := strings.Cut(line[22:], ":")
	n, _ := strconv.Atoi(strings.TrimSpace(num))
	return sourceLine{Flat: flat, Cum: cum, Number: n, Text: text, Hot: flat != "." || cum != "."}
}
