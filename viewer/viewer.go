package viewer

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/web"
)

// Options configure a Handler.
type Options struct {
	// CacheBytes bounds the views kept, by the estimated bytes of their
	// merged profiles and of their rendered answers (16 MB each); 0 means
	// DefaultCacheBytes. A view larger than a quarter of it is not kept.
	CacheBytes int64
	// StoreError, if not nil, tells why the store's writes fail (nil when
	// they do not); the page at / shows it.
	StoreError func() error
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// DefaultCacheBytes is the default bound of a Handler's cache: room for
// the views of a few large selections.
const DefaultCacheBytes = 512 << 20

// viewBytes bounds the rendered answers each web.Server keeps; it is
// counted in the cache's bound.
const viewBytes = 16 << 20

// A Handler serves the viewer: its page at / and, below /ui/ and at
// /download, perflab web's views of the selection a request's URL names.
// Mount it at those paths behind the server's guard (httpguard), with
// AssetPaths let through its cross-site check.
type Handler struct {
	reader store.Reader
	opts   Options
	cache  *cache
	load   sync.Mutex // one merge at a time bounds memory
	mux    *http.ServeMux
}

var _ http.Handler = (*Handler)(nil)

//go:embed assets
var assets embed.FS

// The paths of the viewer's own files.
const (
	pathAssets = "/ui/viewer/"
	pathScript = pathAssets + "viewer.js"
	pathChart  = pathAssets + "chart/" // package chart's uPlot
)

// AssetPaths are the path prefixes of the static files the viewer's
// pages load (its own, perflab web's, uPlot), which hold no data: the
// cross-site check lets them through (httpguard.Policy.Assets).
func AssetPaths() []string { return append(web.AssetPaths(), pathAssets) }

// New returns a Handler that answers from r.
func New(r store.Reader, o Options) *Handler {
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	h := &Handler{reader: r, opts: o, cache: newCache(o.CacheBytes), mux: http.NewServeMux()}
	own, _ := fs.Sub(assets, "assets")
	h.mux.Handle("GET "+pathChart, http.StripPrefix(pathChart, http.FileServerFS(chart.Assets())))
	h.mux.Handle("GET "+pathAssets, http.StripPrefix(pathAssets, http.FileServerFS(own)))
	h.mux.Handle("/ui/assets/", web.Assets())
	h.mux.Handle("/ui/flame/", web.Assets())
	h.mux.HandleFunc("GET /{$}", h.home)
	h.mux.HandleFunc("/ui/", h.views)
	h.mux.HandleFunc("/download", h.views)
	return h
}

// ServeHTTP answers r.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// views answers a request for a view of the selection in its URL: it
// finds or builds the web.Server of the selection and hands it r.
func (h *Handler) views(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/ui/" || r.URL.Path == "/ui" {
		http.Redirect(w, r, "/ui/flamegraph?"+r.URL.RawQuery, http.StatusFound)
		return
	}
	req, err := resolve(r.URL.Query(), h.opts.Now())
	if err != nil {
		h.fail(w, r, http.StatusBadRequest, err)
		return
	}
	s, err := h.server(r.Context(), req)
	switch {
	case errors.Is(err, store.ErrNotFound):
		h.fail(w, r, http.StatusNotFound, err)
		return
	case errors.Is(err, store.ErrInvalid):
		h.fail(w, r, http.StatusBadRequest, err)
		return
	case err != nil:
		h.fail(w, r, http.StatusInternalServerError, err)
		return
	}
	s.ServeHTTP(w, r)
}

// fail answers a request that names no views with status and err: in
// the viewer's page, whose selection bar lets the user change the
// selection, for a page; as one line of text for the rest.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, err error) {
	if r.Method != http.MethodGet || strings.HasPrefix(r.URL.Path, "/ui/api/") || r.URL.Path == "/download" {
		http.Error(w, term.OneLine(err.Error()), status)
		return
	}
	h.page(w, status, pageData{Page: "error", Error: term.OneLine(err.Error())})
}

// server returns the web.Server of req's profile, from the cache or
// merged now.
func (h *Handler) server(ctx context.Context, req request) (*web.Server, error) {
	if v, ok := h.cache.Get(req.key); ok {
		return v.s, nil
	}
	h.load.Lock()
	defer h.load.Unlock()
	if v, ok := h.cache.Get(req.key); ok {
		return v.s, nil
	}
	p, err := h.profile(ctx, req)
	if err != nil {
		return nil, err
	}
	s, err := web.New(p, web.Options{
		Report:     report.DefaultOptions(),
		Title:      req.describe(),
		AnyHost:    true, // the server's guard checked the Host
		CacheBytes: viewBytes,
		Carry:      carried,
		Script:     pathScript,
		BaseName:   req.describeBase(),
	})
	if err != nil {
		return nil, fmt.Errorf("viewer: %s: %w", req.describe(), err)
	}
	h.cache.Put(req.key, view{s, profileBytes(p) + viewBytes})
	return s, nil
}

// profile returns req's profile: one stored profile, or the merge of the
// selection, less the base's for a comparison.
func (h *Handler) profile(ctx context.Context, req request) (*profile.Profile, error) {
	if req.id != "" {
		p, err := h.reader.Profile(ctx, req.id)
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("no profile with ID %q: %w", req.id, err)
		}
		return p, err
	}
	p, err := h.reader.Merge(ctx, req.sel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no profile in %s: %w", describe(req.sel), err)
	}
	if err != nil || req.base == nil {
		return p, err
	}
	base, err := h.reader.Merge(ctx, *req.base)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("no profile in the base, %s: %w", describe(*req.base), err)
	}
	if err != nil {
		return nil, fmt.Errorf("the base, %s: %w", describe(*req.base), err)
	}
	return profiles.ApplyBase(p, base, true)
}

// home serves the page at /: the selection bar and chart, the links to
// the views, the profiles in range and the scrape targets.
func (h *Handler) home(w http.ResponseWriter, r *http.Request) {
	d := pageData{Page: "home"}
	if _, err := resolve(r.URL.Query(), h.opts.Now()); err != nil {
		d.Error = term.OneLine(err.Error())
	}
	if h.opts.StoreError != nil {
		if err := h.opts.StoreError(); err != nil {
			d.StoreError = term.OneLine(err.Error())
		}
	}
	status := http.StatusOK
	if d.Error != "" {
		status = http.StatusBadRequest
	}
	q := url.Values{}
	for _, k := range carried {
		if vs, ok := r.URL.Query()[k]; ok {
			q[k] = vs
		}
	}
	d.Query = q.Encode()
	h.page(w, status, d)
}
