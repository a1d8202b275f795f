package fleet

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"net/url"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
)

// A ViewFunc serves the viewer's pages of p, the merge of the selection
// sel, for the request r to a path below PathUI, whose URL parameters
// hold the selection (those of the read API: query, type, from, until)
// and the viewer's own state. It must escape whatever it shows of p and
// sel: labels and names come from the fleet's programs.
type ViewFunc func(w http.ResponseWriter, r *http.Request, sel store.Selection, p *profile.Profile)

// The selection a page of the viewer shows without parameters: the last
// hour of CPU profiles of every series.
const (
	defaultType = "cpu"
	defaultFrom = "-1h"
)

// views answers a request below PathUI: it merges the selection of the
// URL's parameters and hands the profile to Options.Views.
func (s *Server) views(w http.ResponseWriter, r *http.Request) {
	if s.opts.Views == nil {
		http.Error(w, "not found: the viewer is not part of this perflab yet; a selection's profile is at "+remote.PathMerge, http.StatusNotFound)
		return
	}
	q := r.URL.Query()
	if q.Get("type") == "" {
		q.Set("type", defaultType)
	}
	if q.Get("from") == "" {
		q.Set("from", defaultFrom)
	}
	sel, err := remote.DecodeSelection(q, s.opts.Now())
	if err != nil {
		fail(w, http.StatusBadRequest, err)
		return
	}
	p, err := s.opts.Store.Merge(r.Context(), sel)
	switch {
	case errors.Is(err, store.ErrNotFound):
		http.Error(w, "no profile in the selection "+term.OneLine(sel.Selector.String()), http.StatusNotFound)
		return
	case err != nil:
		fail(w, http.StatusInternalServerError, err)
		return
	}
	s.opts.Views(w, r, sel, p)
}

// homePage is the page at /: what the store holds, service by service,
// with links to the merged profiles; until the viewer takes its place.
var homePage = template.Must(template.New("home").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>perflab server</title></head>
<body>
<h1>perflab server</h1>
<p>{{.Stats.Profiles}} profiles of {{.Stats.Series}} series{{if .Stats.Profiles}}, from {{.Stats.Oldest.UTC.Format "2006-01-02 15:04:05Z"}} to {{.Stats.Newest.UTC.Format "2006-01-02 15:04:05Z"}}{{end}}.
Scrape targets: <a href="/targets">/targets</a>.</p>
{{with .Store}}{{if .Error}}<p><strong>The store's writes fail</strong>: {{.Error}} ({{.PendingBytes}} bytes wait to be written).</p>{{end}}{{end}}
{{range .Services}}<h2>{{.Name}}</h2>
<ul>{{range .Types}}<li>{{.ID}}: <a href="{{.Merge}}">the last hour, merged (pprof)</a>{{if .View}}, <a href="{{.View}}">viewed</a>{{end}}</li>
{{end}}</ul>
{{end}}
<p>APIs: Pyroscope's push (/ingest, /push.v1.PusherService/Push) and querier (/querier.v1.QuerierService/…), and perflab's read API (/api/v1/…): see docs/server.md.</p>
</body></html>
`))

type homeService struct {
	Name  string
	Types []homeType
}

type homeType struct {
	ID, Merge, View string
}

// home serves the page at /.
func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st, err := s.opts.Store.Stats(ctx)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	data := struct {
		Stats    store.Stats
		Store    *StoreHealth
		Services []homeService
	}{Stats: st, Store: s.storeHealth()}
	names, err := s.opts.Store.LabelValues(ctx, store.Selection{}, store.LabelService)
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	for _, name := range names {
		m, _ := store.NewMatcher(store.LabelService, store.MatchEqual, name)
		sel := store.Selection{Selector: store.Selector{m}}
		types, err := s.opts.Store.ProfileTypes(ctx, sel)
		if err != nil {
			fail(w, http.StatusInternalServerError, err)
			return
		}
		hs := homeService{Name: name}
		for _, t := range types {
			sel.Type = t
			q := url.Values{}
			remote.EncodeSelection(q, sel)
			q.Set("from", defaultFrom)
			ht := homeType{ID: t.ID(), Merge: remote.PathMerge + "?" + q.Encode()}
			if s.opts.Views != nil {
				ht.View = PathUI + "?" + q.Encode()
			}
			hs.Types = append(hs.Types, ht)
		}
		data.Services = append(data.Services, hs)
	}
	var b bytes.Buffer
	if err := homePage.Execute(&b, data); err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(b.Bytes())
}

// fail answers with status and err's message on one line.
func fail(w http.ResponseWriter, status int, err error) {
	http.Error(w, term.OneLine(err.Error()), status)
}
