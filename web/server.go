package web

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/graph"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// Options configure a Server.
type Options struct {
	// Report is the initial state: a page opened without URL parameters
	// is redirected to the URL holding these settings, and the settings
	// that have no URL parameter (source_path, trim_path, divide_by)
	// apply to every request.
	Report report.Options
	// Title names the sources in the pages' titles.
	Title string
	// AnyHost turns off the Host check. Leave it false when the server
	// listens on loopback: then a request whose Host header is not a
	// loopback name (DNS rebinding) gets 403.
	AnyHost bool
	// Token, if not "", is required of every request: as the header
	// "Authorization: Bearer <Token>", or in the cookie that opening any
	// page once with ?token=<Token> sets (internal/httpguard). Serve a
	// non-loopback address only with a token.
	Token string
	// CacheBytes bounds the rendered answers kept, one per view and
	// refinement, by their size in bytes; 0 means DefaultCacheBytes. An
	// answer larger than a quarter of it is not kept.
	CacheBytes int64
	// MaxBytes caps a base profile uploaded in the UI, as -max_bytes
	// caps the command's sources; 0 means profiles.DefaultMaxBytes.
	MaxBytes int64
	// Binary, if not "", is the profiled binary, for the source view's
	// assembly (pprof's BINARY argument); otherwise it is found from the
	// profile's mappings as perflab disasm finds it.
	Binary string
	// BaseName names the base of a profile compared with one (the
	// -diff_base or -base sources), in the diff flame graph's legend.
	BaseName string
	// Carry names URL parameters that are not pprof's but that every
	// page keeps in its links (the menu, Reset, the base upload), for a
	// server that serves the views of several profiles at the same paths
	// and picks the profile by them (perflab server's selection).
	Carry []string
	// Script, if not "", is the path of an ES module every page loads
	// after its own, for such a server to draw its controls above the
	// views (perflab server's selection bar and chart).
	Script string
}

// A Server serves the web UI of one loaded profile. It is an
// http.Handler; the profile is never re-parsed and never changed.
type Server struct {
	p       *profile.Profile
	opts    Options
	base    report.Options // DefaultOptions with the settings URLs do not hold
	initial string         // the encoded URL state of opts.Report
	mux     *http.ServeMux
	views   http.Handler // mux for GET and HEAD
	front   http.Handler // serve behind the checks
	cache   *cache
	derived *derivedCache // per-refinement data other packages build (flame trees)
	compute sync.Mutex    // one aggregation at a time bounds memory
	diff    bool          // the profile holds -diff_base samples
	bases   *baseStore    // bases uploaded in the UI (base.go); nil in a base's own server

	labelsOnce sync.Once
	labelHints []string // key=value of the profile's labels, for the tag filters
	describe   []string // the profile's File, Type, Time and Duration lines

	binariesOnce sync.Once
	binaries     *disasm.Cache // binaries opened for the source view (weblist.go)
	noteBuilds   noteBuilds    // the source view's compiler notes (notes.go)
}

// New returns a Server for p. p must not be changed afterwards.
func New(p *profile.Profile, o Options) (*Server, error) {
	if p == nil || len(p.SampleType) == 0 {
		return nil, errors.New("web: profile has no sample types")
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	s := &Server{p: p, opts: o, base: report.DefaultOptions(), cache: newCache(o.CacheBytes),
		derived: newDerivedCache(derivedEntries), bases: newBaseStore()}
	for _, st := range settings.All() {
		if st.URLParam == "" {
			if err := st.Set(&s.base, st.Get(&o.Report)); err != nil {
				return nil, fmt.Errorf("web: setting %s: %w", st.Name, err)
			}
		}
	}
	q := url.Values{}
	settings.EncodeURL(&o.Report, q)
	s.initial = q.Encode()
	if _, err := s.options(q); err != nil {
		return nil, fmt.Errorf("web: initial settings: %w", err)
	}
	for _, smp := range p.Sample {
		if smp.DiffBaseSample() {
			s.diff = true
			break
		}
	}
	s.describe, _, _ = report.Describe(p)
	s.routes()
	return s, nil
}

// ServeHTTP answers r after the checks every perflab server makes: the
// Host check unless Options.AnyHost, the refusal of requests a browser
// sends on behalf of another site (on every path but the static assets),
// and the token if Options.Token is set.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.front.ServeHTTP(w, r)
}

// serve answers r once it passed the checks: uploaded bases (base.go),
// then the views, GET and HEAD only.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.serveBase(w, r) {
		return
	}
	s.views.ServeHTTP(w, r)
}

// routes sets up pprof's paths under /ui/ and the JSON endpoints. As in
// go tool pprof -http (Go 1.26's pprof), / leads to /ui/, which is
// redirected to /ui/flamegraph keeping its query, and so are pprof's old
// names of the flame graph; the call graph is /ui/graph.
func (s *Server) routes() {
	m := http.NewServeMux()
	m.Handle("/{$}", redirectWithQuery("/ui/", http.StatusTemporaryRedirect))
	m.Handle("/ui", redirectWithQuery("/ui/", http.StatusMovedPermanently))
	for _, v := range views {
		m.HandleFunc("/ui/"+v.path, s.page(v))
	}
	for _, path := range []string{"/ui/{$}", "/ui/flamegraph2", "/ui/flamegraphold"} {
		m.Handle(path, redirectWithQuery("/ui/flamegraph", http.StatusMovedPermanently))
	}
	m.HandleFunc("/ui/api/top", s.api("top", s.topJSON))
	m.HandleFunc("/ui/api/peek", s.api("peek", s.peekJSON))
	for path, h := range s.extraAPIs() {
		m.HandleFunc(path, h)
	}
	m.HandleFunc("/download", s.download)
	m.Handle("/ui/assets/", Assets())
	m.Handle("/ui/flame/", Assets())
	s.mux = m
	s.views = getOnly(m)
	s.front = protect(http.HandlerFunc(s.serve), s.opts.AnyHost, s.opts.Token)
}

// Assets returns the handler of the static files every page of a Server
// loads (styles, scripts), at their paths below /ui/assets/ and
// /ui/flame/ (AssetPaths), so that a server holding several Servers can
// serve them without a profile.
func Assets() http.Handler {
	static, _ := fs.Sub(assets, "assets")
	m := http.NewServeMux()
	m.Handle("/ui/assets/", http.StripPrefix("/ui/assets/", http.FileServerFS(static)))
	m.Handle("/ui/flame/", http.StripPrefix("/ui/flame/", http.FileServerFS(flame.Assets())))
	m.Handle("/ui/assets/graph/", http.StripPrefix("/ui/assets/graph/", http.FileServerFS(graph.Assets()))) // package graph's pan and zoom
	return m
}

// redirectWithQuery redirects to path with the request's query, as
// pprof's web UI does.
func redirectWithQuery(path string, code int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := path
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, u, code)
	})
}

// options resolves a request's settings: the server's base with the URL
// parameters applied, checked as a report would check them.
func (s *Server) options(q url.Values) (report.Options, error) {
	o := s.base
	if err := settings.ApplyURL(&o, q); err != nil {
		return o, err
	}
	if _, err := s.p.SampleIndexByName(o.SampleIndex); err != nil {
		return o, fmt.Errorf("URL parameter si: %w", err)
	}
	if gs, _ := settings.Lookup("granularity"); o.Granularity != "" && !slices.Contains(gs.ChoiceNames(), o.Granularity) {
		return o, fmt.Errorf("URL parameter g: unknown granularity %q", o.Granularity)
	}
	return o, nil
}

// key is the canonical form of the settings, for the caches.
func key(o report.Options) string {
	q := url.Values{}
	settings.EncodeURL(&o, q)
	return q.Encode()
}

// profileFor returns the profile report.Filter (the download) may filter
// in place: the loaded one when o filters nothing, else a shallow copy
// whose samples and locations the filters may rewrite. The reports
// themselves (Generate, GenerateJSON, CallGraph, ListSource, Disassemble) leave the profile as it
// is and are given s.p.
func (s *Server) profileFor(o report.Options) *profile.Profile {
	if len(o.ActiveFilters()) == 0 {
		return s.p
	}
	return shallowCopy(s.p)
}

// shallowCopy copies what pprof's filters change — the sample list, each
// sample's stack and each location's lines — and shares the rest (values,
// labels, functions, mappings), which they only read.
func shallowCopy(p *profile.Profile) *profile.Profile {
	c := &profile.Profile{SampleType: p.SampleType, DefaultSampleType: p.DefaultSampleType,
		Mapping: p.Mapping, Function: p.Function, Comments: p.Comments, DocURL: p.DocURL,
		DropFrames: p.DropFrames, KeepFrames: p.KeepFrames, TimeNanos: p.TimeNanos,
		DurationNanos: p.DurationNanos, PeriodType: p.PeriodType, Period: p.Period}
	newLoc := locationCopier(p.Location)
	c.Location = make([]*profile.Location, len(p.Location))
	for i, l := range p.Location {
		c.Location[i] = newLoc(l)
	}
	c.Sample = make([]*profile.Sample, len(p.Sample))
	samples := make([]profile.Sample, len(p.Sample))
	n := 0
	for _, smp := range p.Sample {
		n += len(smp.Location)
	}
	stacks := make([]*profile.Location, n) // one array for every stack
	for i, smp := range p.Sample {
		samples[i] = *smp
		ns := &samples[i]
		ns.Location, stacks = stacks[:len(smp.Location):len(smp.Location)], stacks[len(smp.Location):]
		for j, l := range smp.Location {
			ns.Location[j] = newLoc(l)
		}
		c.Sample[i] = ns
	}
	return c
}

// locationCopier copies each location once and returns the copy of a
// location: by ID through a slice when the IDs are unique and dense (as
// decoded profiles' are), else through a map.
func locationCopier(locs []*profile.Location) func(*profile.Location) *profile.Location {
	copies := make([]profile.Location, len(locs))
	maxID := uint64(0)
	for i, l := range locs {
		copies[i] = *l
		maxID = max(maxID, l.ID)
	}
	if maxID <= uint64(2*len(locs)+16) {
		byID := make([]*profile.Location, maxID+1)
		unique := true
		for i, l := range locs {
			unique = unique && l.ID != 0 && byID[l.ID] == nil
			byID[l.ID] = &copies[i]
		}
		if unique {
			return func(l *profile.Location) *profile.Location { return byID[l.ID] }
		}
	}
	m := make(map[*profile.Location]*profile.Location, len(locs))
	for i, l := range locs {
		m[l] = &copies[i]
	}
	return func(l *profile.Location) *profile.Location { return m[l] }
}

// An answer is a rendered response body.
type answer struct {
	body        []byte
	contentType string
	warnings    []string // pprof's warnings, such as "Focus expression matched no samples"
}

// cached returns the answer of name for o, computing it with f once.
// Errors are not cached: a bad parameter costs only its own request.
func (s *Server) cached(name string, o report.Options, extra string, f func(o report.Options) (answer, error)) (answer, error) {
	k := name + "?" + key(o) + "&" + extra
	if a, ok := s.cache.Get(k); ok {
		return a, nil
	}
	s.compute.Lock()
	defer s.compute.Unlock()
	if a, ok := s.cache.Get(k); ok {
		return a, nil
	}
	var warn bytes.Buffer
	o.Warnings = &warn
	a, err := f(o)
	if err != nil {
		return a, err
	}
	a.warnings = strings.FieldsFunc(warn.String(), func(r rune) bool { return r == '\n' })
	s.cache.Put(k, a)
	return a, nil
}

// api makes the handler of a JSON endpoint: 400 with the error text for a
// bad parameter.
func (s *Server) api(name string, f func(o report.Options, q url.Values) (answer, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		o, err := s.options(q)
		if err == nil {
			var a answer
			if a, err = f(o, q); err == nil {
				write(w, r, http.StatusOK, a.contentType, a.body)
				return
			}
		}
		http.Error(w, name+": "+err.Error(), http.StatusBadRequest)
	}
}

// download writes the refined profile, gzipped, as pprof's /download does.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	o, err := s.options(r.URL.Query())
	if err == nil {
		var a answer
		a, err = s.cached("download", o, "", func(o report.Options) (answer, error) {
			p := s.profileFor(o)
			if err := report.Filter(p, o); err != nil {
				return answer{}, err
			}
			var buf bytes.Buffer
			if err := p.Write(&buf); err != nil {
				return answer{}, err
			}
			return answer{body: buf.Bytes(), contentType: "application/octet-stream"}, nil
		})
		if err == nil {
			w.Header().Set("Content-Type", a.contentType)
			w.Header().Set("Content-Disposition", `attachment; filename="profile.pb.gz"`)
			w.Write(a.body)
			return
		}
	}
	http.Error(w, "download: "+err.Error(), http.StatusBadRequest)
}
