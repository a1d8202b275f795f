package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"

	"github.com/perflab/perflab/goroutines"
)

// GoroutineOptions configure a GoroutineServer.
type GoroutineOptions struct {
	// Title names the dump in the page's title.
	Title string
	// AnyHost turns off the Host check, as in Options.
	AnyHost bool
	// Token, if not "", is required of every request, as in Options.
	Token string
	// LongWait is the wait, in minutes, from which a group is reported
	// as waiting long; 0 means 1.
	LongWait int
}

// A GoroutineServer serves the groups of one goroutine dump at
// /ui/goroutines: the panic first, the leak findings (with a base dump,
// see goroutines.Dump.Compare), then one block per group with its count,
// state, wait range, labels, creator and frames, standard-library frames
// dimmed; /ui/api/goroutines is the same as JSON. Both are rendered once.
type GoroutineServer struct {
	page, json []byte
	opts       GoroutineOptions
	front      http.Handler // the routes behind the checks
}

var goroutinesTmpl = template.Must(template.ParseFS(assets, "assets/goroutines.html"))

// NewGoroutines returns a server of d, which must be sorted and, for a
// comparison, compared with its base already.
func NewGoroutines(d *goroutines.Dump, o GoroutineOptions) (*GoroutineServer, error) {
	var frag, js bytes.Buffer
	if err := d.WriteHTML(&frag, goroutines.HTMLOptions{LongWait: o.LongWait}); err != nil {
		return nil, fmt.Errorf("web: goroutines: %w", err)
	}
	if err := d.WriteJSON(&js); err != nil {
		return nil, fmt.Errorf("web: goroutines: %w", err)
	}
	var page bytes.Buffer
	err := goroutinesTmpl.Execute(&page, struct {
		Title string
		Nav   []navLink
		Total int
		Body  template.HTML
	}{o.Title, []navLink{{Path: "/ui/goroutines", Title: "Goroutines", Current: true}}, d.Total,
		template.HTML(frag.String())}) // WriteHTML escapes everything from the dump
	if err != nil {
		return nil, fmt.Errorf("web: goroutines: %w", err)
	}
	s := &GoroutineServer{page: page.Bytes(), json: js.Bytes(), opts: o}
	m := http.NewServeMux()
	m.Handle("/{$}", http.RedirectHandler("/ui/goroutines", http.StatusFound))
	m.Handle("/ui/{$}", http.RedirectHandler("/ui/goroutines", http.StatusFound))
	m.HandleFunc("/ui/goroutines", func(w http.ResponseWriter, r *http.Request) {
		write(w, r, http.StatusOK, "text/html; charset=utf-8", s.page)
	})
	m.HandleFunc("/ui/api/goroutines", func(w http.ResponseWriter, r *http.Request) {
		write(w, r, http.StatusOK, "application/json", s.json)
	})
	static, _ := fs.Sub(assets, "assets")
	m.Handle("/ui/assets/", http.StripPrefix("/ui/assets/", http.FileServerFS(static)))
	s.front = protect(getOnly(m), o.AnyHost, o.Token)
	return s, nil
}

// ServeHTTP answers r, after the checks of Options (the Host, cross-site
// requests, the token).
func (s *GoroutineServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.front.ServeHTTP(w, r)
}
