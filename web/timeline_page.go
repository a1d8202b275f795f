package web

import (
	"bytes"
	"html/template"
	"net/http"
)

var traceTmpl = template.Must(template.ParseFS(assets, "assets/trace.html"))

// A navLink is an entry of the trace and goroutine pages' menus.
type navLink struct {
	Path, Title string
	Current     bool
}

// tracePage is what trace.html shows.
type tracePage struct {
	View, Title, Note, Summary string
	Pending                    bool // the summary is being read
	Nav                        []navLink
	DurationNs                 int64
}

func (s *TraceServer) timelinePage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, "timeline")
}

func (s *TraceServer) summaryPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, "trace")
}

func (s *TraceServer) render(w http.ResponseWriter, r *http.Request, view string) {
	p := tracePage{View: view, Title: s.opts.Title, Note: s.note(), DurationNs: int64(s.overview.End())}
	if s.summary() != nil {
		p.Summary = s.text
	} else if view == "trace" {
		p.Pending = true
	}
	for _, l := range []navLink{{Path: "/ui/timeline", Title: "Timeline"}, {Path: "/ui/trace", Title: "Summary"}} {
		l.Current = l.Path == "/ui/"+view
		p.Nav = append(p.Nav, l)
	}
	var buf bytes.Buffer
	if err := traceTmpl.Execute(&buf, p); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, r, http.StatusOK, "text/html; charset=utf-8", buf.Bytes())
}
