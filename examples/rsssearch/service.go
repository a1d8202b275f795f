package rsssearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Options configure a Service.
type Options struct {
	Variant  Variant       // Naive or Tuned; 0 means Tuned
	FeedsURL string        // where FeedServer runs, e.g. http://127.0.0.1:8081
	Expiry   time.Duration // how long a feed stays cached; 0 means DefaultExpiry
	Client   *http.Client  // fetches the feeds; nil means http.DefaultClient
}

// A Service answers /search. Its zero value is not usable; call New.
type Service struct {
	variant Variant
	feeds   string
	cache   *feedCache
	bufs    sync.Pool
}

// New returns the service.
func New(opts Options) *Service {
	if opts.Variant == 0 {
		opts.Variant = Tuned
	}
	if opts.Expiry <= 0 {
		opts.Expiry = DefaultExpiry
	}
	if opts.Client == nil {
		opts.Client = http.DefaultClient
	}
	return &Service{
		variant: opts.Variant,
		feeds:   strings.TrimSuffix(opts.FeedsURL, "/"),
		cache:   newFeedCache(opts.Client, opts.Expiry, opts.Variant == Tuned),
		bufs:    sync.Pool{New: func() any { return new(bytes.Buffer) }},
	}
}

// Search searches the feeds of engines for term, ignoring case, and
// returns the matching items, engine by engine in the order given.
func (s *Service) Search(ctx context.Context, term string, engines []string) ([]Result, error) {
	lowerTerm := strings.ToLower(term) // the tuned variant's: once per request
	parts := make([][]Result, len(engines))
	errs := make([]error, len(engines))
	var wg sync.WaitGroup
	for i, e := range engines {
		uri := s.feeds + FeedPath(e)
		wg.Go(func() {
			if s.variant == Naive {
				parts[i], errs[i] = rssSearch(ctx, s.cache, uri, term, e)
			} else {
				parts[i], errs[i] = rssSearchTuned(ctx, s.cache, uri, lowerTerm, e)
			}
		})
	}
	wg.Wait()
	var out []Result
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, errors.Join(errs...)
}

// page is what the results template renders.
type page struct {
	Term    string
	Engines map[string]bool
	Results []view
}

// view is one result as the page shows it: Content is a string the
// template escapes (naive) or template.HTML escaped at cache fill (tuned).
type view struct {
	Engine, Title, Link string
	Content             any
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>RSS search</title></head>
<body>
<form method="POST" action="/search">
<input type="text" name="term" value="{{.Term}}">
{{range $e, $on := .Engines}}<label><input type="checkbox" name="{{$e}}"{{if $on}} checked{{end}}> {{$e}}</label>
{{end}}<input type="submit" value="Search">
</form>
<p>{{len .Results}} results for {{.Term}}</p>
{{range .Results}}<div class="result">
<h2><a href="{{.Link}}">{{.Title}}</a></h2>
<p class="engine">{{.Engine}}</p>
<p class="content">{{.Content}}</p>
</div>
{{end}}</body></html>
`))

var textTemplate = template.Must(template.New("text").Parse(`{{.}}`))

// escapeHTML escapes s as the page template escapes text.
func escapeHTML(s string) template.HTML {
	var b strings.Builder
	textTemplate.Execute(&b, s)
	return template.HTML(b.String())
}

// ServeHTTP answers GET or POST /search?term=T&cnn=on&bbc=on&nyt=on with
// the results page, or with JSON when format=json or the request accepts
// application/json.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/search" && r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	term := r.FormValue("term")
	var engines []string
	on := map[string]bool{}
	for _, e := range Engines {
		if r.FormValue(e) == "on" {
			engines = append(engines, e)
			on[e] = true
		}
	}
	var results []Result
	if term != "" {
		var err error
		if results, err = s.Search(r.Context(), term, engines); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
	}
	if r.FormValue("format") == "json" || strings.Contains(r.Header.Get("Accept"), "application/json") {
		s.writeJSON(w, results)
		return
	}
	s.writePage(w, page{Term: term, Engines: on, Results: s.views(results)})
}

func (s *Service) views(results []Result) []view {
	vs := make([]view, len(results))
	for i, r := range results {
		vs[i] = view{Engine: r.Engine, Title: r.Title, Link: r.Link, Content: r.Content}
		if s.variant == Tuned {
			vs[i].Content = r.escaped
		}
	}
	return vs
}

func (s *Service) writePage(w http.ResponseWriter, p page) {
	buf := s.buffer()
	defer s.release(buf)
	if err := pageTemplate.Execute(buf, p); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

func (s *Service) writeJSON(w http.ResponseWriter, results []Result) {
	if results == nil {
		results = []Result{}
	}
	buf := s.buffer()
	defer s.release(buf)
	if err := json.NewEncoder(buf).Encode(results); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}

// buffer returns an empty buffer: from the pool in the tuned variant, a
// new one in the naive.
func (s *Service) buffer() *bytes.Buffer {
	if s.variant == Naive {
		return new(bytes.Buffer)
	}
	b := s.bufs.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func (s *Service) release(b *bytes.Buffer) {
	if s.variant == Tuned && b.Cap() <= 1<<20 {
		s.bufs.Put(b)
	}
}
