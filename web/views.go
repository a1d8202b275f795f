package web

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

//go:embed assets
var assets embed.FS

var pageTmpl = template.Must(template.ParseFS(assets, "assets/page.html"))

// A view is one page of the UI, at /ui/PATH.
type view struct {
	path  string
	title string
	// fill computes the view's content into d; an error is the request's
	// fault (a bad regexp, an unknown sample type) and is shown in place.
	fill func(s *Server, o report.Options, q url.Values, d *pageData) error
}

// views is the table of pages, in the menu's order, at pprof's paths
// (/ui/ leads to the first).
var views = []view{
	{"flamegraph", "Flame graph", (*Server).fillFlame},
	{"top", "Top", (*Server).fillTop},
	{"graph", "Graph", (*Server).fillGraph},
	{"peek", "Peek", (*Server).fillPeek},
	{"source", "Source", (*Server).fillSource},
	{"disasm", "Disassembly", (*Server).fillDisasm},
	{"sandwich", "Sandwich", (*Server).fillSandwich},
}

// pageData is what page.html renders. Every string from the profile
// reaches the page through html/template, which escapes it.
type pageData struct {
	View, Title string
	Query       template.URL // the request's query, re-encoded, for the menu's links
	Views       []link
	Error       string
	Warnings    []string
	SampleTypes []option
	Choices     []choiceField // group settings (granularity, sort)
	Refine      []field       // string settings: focus, ignore, ... tagignore
	More        []field       // other settings with URL parameters
	Labels      []string      // key=value of the profile's labels, for tag filters
	GroupBy     *choiceField  // tagroot as a select of the profile's label keys
	Diff        bool          // the profile is a -diff_base comparison
	BaseName    string        // the base's name, in a diff
	Symbol      string        // the function a peek, source or sandwich is about
	Legend      []string      // the profile's description and active filters

	Top       *report.JSONReport
	Peek      *report.JSONReport
	Source    template.HTML // the source view, rendered by weblist.go
	Disasm    string        // the disassembly view's text, pprof's -disasm
	Graph     template.HTML // SVG from package graph, escaped by it
	FlameData template.JS   // the first flame.View, HTML-escaped JSON
	Functions []functionRow // the sandwich view's table
	Script    string        // the view's ES module, under /ui/assets
	Carry     template.URL  // Options.Carry's parameters of the request, encoded
	Extra     string        // Options.Script
}

type link struct {
	Path, Title string
	Current     bool
}

type option struct {
	Value, Label string
	Selected     bool
}

type choiceField struct {
	Param, Name, Help string
	Options           []option
}

type field struct {
	Param, Name, Help, Value, Placeholder string
}

// page makes the handler of view v.
func (s *Server) page(v view) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" && s.initial != "" {
			http.Redirect(w, r, r.URL.Path+"?"+s.initial, http.StatusFound)
			return
		}
		pageKey := "page:" + v.path + "?" + r.URL.RawQuery
		if a, ok := s.cache.Get(pageKey); ok {
			write(w, r, http.StatusOK, a.contentType, a.body)
			return
		}
		q := r.URL.Query()
		d := &pageData{View: v.path, Title: s.opts.Title, Query: template.URL(r.URL.Query().Encode()), Diff: s.diff, BaseName: s.opts.BaseName,
			Carry: template.URL(s.carried(r.URL.Query())), Extra: s.opts.Script}
		status := http.StatusOK
		o, err := s.options(q)
		s.menu(d, o, q)
		if err == nil {
			err = v.fill(s, o, q, d)
		}
		if err != nil {
			d.Error = err.Error()
			status = http.StatusBadRequest
		}
		var buf bytes.Buffer
		if err := pageTmpl.Execute(&buf, d); err != nil {
			http.Error(w, "rendering page: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if status == http.StatusOK {
			s.cache.Put(pageKey, answer{body: buf.Bytes(), contentType: "text/html; charset=utf-8"})
		}
		write(w, r, status, "text/html; charset=utf-8", buf.Bytes())
	}
}

// carried returns the encoded parameters of q that Options.Carry names.
func (s *Server) carried(q url.Values) string {
	c := url.Values{}
	for _, k := range s.opts.Carry {
		if vs, ok := q[k]; ok {
			c[k] = vs
		}
	}
	return c.Encode()
}

// menu fills the menu from settings.All: the view switcher, the sample
// type, the groups, the refinements and the other settings.
func (s *Server) menu(d *pageData, o report.Options, q url.Values) {
	for _, v := range views {
		d.Views = append(d.Views, link{v.path, v.title, v.path == d.View})
	}
	si, _ := s.p.SampleIndexByName(o.SampleIndex)
	for i, st := range s.p.SampleType {
		d.SampleTypes = append(d.SampleTypes, option{st.Type, st.Type + " (" + st.Unit + ")", i == si})
	}
	for _, st := range settings.All() {
		switch {
		case st.URLParam == "" || st.Name == "sample_index":
		case st.Name == "tagroot":
			d.GroupBy = s.groupBy(st, o)
		case st.Choices != nil:
			c := choiceField{Param: st.URLParam, Name: st.Name, Help: st.Description()}
			cur := st.Get(&o)
			if cur == "" {
				cur = st.Choices[0].Name
			}
			for _, ch := range st.Choices {
				c.Options = append(c.Options, option{ch.Name, ch.Name, ch.Name == cur})
			}
			d.Choices = append(d.Choices, c)
		case st.Arg() == "regexp" || st.Arg() == "filter":
			d.Refine = append(d.Refine, field{st.URLParam, st.Name, st.Description(), q.Get(st.URLParam), st.Arg()})
		default:
			d.More = append(d.More, field{st.URLParam, st.Name, st.Description(), q.Get(st.URLParam), st.Default()})
		}
	}
	d.Labels = s.labels()
}

// labels lists the profile's string labels as key=value, and its numeric
// label keys as key=, at most 200 of them, for the tag filters' hints.
func (s *Server) labels() []string {
	s.labelsOnce.Do(func() { s.labelHints = s.collectLabels() })
	return s.labelHints
}

func (s *Server) collectLabels() []string {
	seen := map[string]bool{}
	for _, smp := range s.p.Sample {
		for k, vs := range smp.Label {
			for _, v := range vs {
				if len(seen) < 200 {
					seen[k+"="+v] = true
				}
			}
		}
		for k := range smp.NumLabel {
			if len(seen) < 200 {
				seen[k+"="] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for l := range seen {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// symbol is the regexp peek, source and sandwich are about: pprof's web
// UI takes it from the focus parameter.
func symbol(q url.Values) string { return strings.TrimSpace(q.Get("f")) }
