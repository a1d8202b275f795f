package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/httpguard"
	"github.com/perflab/perflab/profiles"
)

// ParamBase is the URL parameter naming a base profile uploaded in the
// UI: a request that carries it is answered from the comparison of the
// loaded profile with that base, as -diff_base would have made it.
const ParamBase = "base"

// basePath is the endpoint that receives uploaded bases (POST) and
// describes the held ones (GET).
const basePath = "/ui/api/base"

// maxBases bounds how many uploaded bases a server holds; each holds a
// copy of the profile merged with the base. The oldest is dropped first.
const maxBases = 4

// maxNameLen bounds the shown name of an uploaded file.
const maxNameLen = 200

// A baseEntry is one uploaded base: its comparison, served by a Server
// of its own over the merged profile.
type baseEntry struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Samples int    `json:"samples"` // the base's samples
	srv     *Server
}

// baseStore holds the uploaded bases by ID, the hash of the uploaded
// bytes, so uploading the same file again finds the same comparison.
type baseStore struct {
	upload sync.Mutex // one upload is read and compared at a time
	mu     sync.Mutex
	order  []*baseEntry // oldest first
}

func newBaseStore() *baseStore { return &baseStore{} }

func (b *baseStore) get(id string) *baseEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.order {
		if e.ID == id {
			return e
		}
	}
	return nil
}

func (b *baseStore) put(e *baseEntry) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.order) >= maxBases {
		b.order = append(b.order[:0:0], b.order[1:]...)
	}
	b.order = append(b.order, e)
}

func (b *baseStore) list() []*baseEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*baseEntry(nil), b.order...)
}

// serveBase answers the requests that concern uploaded bases: the upload
// endpoint, and every view or API request whose URL names a base, which
// the base's own Server answers. It reports whether it answered r.
func (s *Server) serveBase(w http.ResponseWriter, r *http.Request) bool {
	if s.bases == nil { // a base's own server
		return false
	}
	if r.URL.Path == basePath {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		switch r.Method {
		case http.MethodPost:
			s.uploadBase(w, r)
		case http.MethodGet, http.MethodHead:
			s.describeBases(w, r)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
		return true
	}
	id := r.URL.Query().Get(ParamBase)
	if id == "" || strings.HasPrefix(r.URL.Path, "/ui/assets/") || strings.HasPrefix(r.URL.Path, "/ui/flame/") {
		return false
	}
	if e := s.bases.get(id); e != nil {
		e.srv.serve(w, r) // this server made the checks
		return true
	}
	s.unknownBase(w, r, id)
	return true
}

// formRoom is what a multipart form may add to the file it carries.
const formRoom = 1 << 20

// uploadBase reads a base profile from the request body — raw, or the
// first file of a multipart form — and builds its comparison. It answers
// the base's ID and name as JSON; a bad file gets 400 with the cause. The
// body is read in chunks into a profiles.Budget of the server's MaxBytes,
// which its decompression shares, as every source of the command shares
// one: a Content-Length over the limit gets 413 before any of it is read,
// a body that grows past it 413 once it has, and while one upload is read
// and compared, others get 429. (A request from another site never gets
// here: the checks of ServeHTTP refuse it with 403.)
func (s *Server) uploadBase(w http.ResponseWriter, r *http.Request) {
	if s.diff {
		httpguard.Refuse(w, http.StatusBadRequest, "base upload: the profile is already compared with a base (-diff_base or -base)")
		return
	}
	limit := s.opts.MaxBytes
	if limit <= 0 {
		limit = profiles.DefaultMaxBytes
	}
	if r.ContentLength > limit+formRoom {
		httpguard.Refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("base upload: %v: a body of %d bytes, more than the limit of %d (raise it with -max_bytes)",
			profiles.ErrTooLarge, r.ContentLength, limit))
		return
	}
	if !s.bases.upload.TryLock() {
		w.Header().Set("Retry-After", "1")
		httpguard.Refuse(w, http.StatusTooManyRequests, "base upload: another base is being uploaded; try again when it is done")
		return
	}
	defer s.bases.upload.Unlock()
	r.Body = http.MaxBytesReader(w, r.Body, limit+formRoom)
	budget := profiles.NewBudget(limit)
	name, data, err := readUpload(r, budget)
	if err == nil {
		var e *baseEntry
		if e, err = s.addBase(name, data, budget); err == nil {
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(e)
			return
		}
	}
	status := http.StatusBadRequest
	var mbe *http.MaxBytesError
	if errors.Is(err, profiles.ErrTooLarge) || errors.As(err, &mbe) {
		status = http.StatusRequestEntityTooLarge
	}
	httpguard.Refuse(w, status, "base upload: "+err.Error())
}

// readUpload returns the uploaded file's name and bytes, read into
// memory taken from b.
func readUpload(r *http.Request, b *profiles.Budget) (string, []byte, error) {
	name := r.URL.Query().Get("name")
	body, size := io.Reader(r.Body), r.ContentLength
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		mr, err := r.MultipartReader()
		if err != nil {
			return "", nil, err
		}
		part, err := mr.NextPart()
		for err == nil && part.FileName() == "" {
			part, err = mr.NextPart()
		}
		if err != nil {
			return "", nil, fmt.Errorf("no file in the form: %w", err)
		}
		name, body, size = part.FileName(), part, -1
	}
	name = shortName(name)
	data, err := profiles.ReadAll(name, body, size, b)
	if err != nil {
		return name, nil, err
	}
	if len(data) == 0 {
		return name, nil, fmt.Errorf("%s: empty file", name)
	}
	return name, data, nil
}

// shortName is the shown name of an upload: valid UTF-8, at most
// maxNameLen bytes, "base" if none.
func shortName(name string) string {
	name = strings.ToValidUTF8(strings.TrimSpace(name), "?")
	for len(name) > maxNameLen {
		_, n := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-n]
	}
	if name == "" {
		return "base"
	}
	return name
}

// addBase parses data as a profile, decompressing it into memory taken
// from b, and holds the comparison of the loaded profile with it,
// computed as -diff_base computes it (profiles.ApplyBase with the base's
// samples labelled pprof::base). The caller holds s.bases.upload.
func (s *Server) addBase(name string, data []byte, b *profiles.Budget) (*baseEntry, error) {
	sum := sha256.Sum256(data)
	id := hex.EncodeToString(sum[:8])
	if e := s.bases.get(id); e != nil {
		return e, nil
	}
	base, err := profiles.ParseData(name, data, profiles.Options{MaxBytes: b.Limit(), Budget: b})
	if err != nil {
		return nil, err
	}
	n := len(base.Sample)
	merged, err := profiles.ApplyBase(s.p.Copy(), base, true) // ApplyBase changes its arguments
	if err != nil {
		return nil, fmt.Errorf("comparing with %s: %w", name, err)
	}
	o := s.opts
	o.Title = strings.TrimSpace(o.Title + " (base " + name + ")")
	o.BaseName = name
	sub, err := New(merged, o)
	if err != nil {
		return nil, fmt.Errorf("comparing with %s: %w", name, err)
	}
	sub.bases = nil
	e := &baseEntry{ID: id, Name: name, Samples: n, srv: sub}
	s.bases.put(e)
	return e, nil
}

// describeBases answers GET /ui/api/base: the base named by the base
// parameter, or the list of held bases.
func (s *Server) describeBases(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if id := r.URL.Query().Get(ParamBase); id != "" {
		e := s.bases.get(id)
		if e == nil {
			http.Error(w, fmt.Sprintf("base %q: not held by this server (it was restarted, or the base was dropped for newer ones); upload it again", id), http.StatusNotFound)
			return
		}
		json.NewEncoder(w).Encode(e)
		return
	}
	json.NewEncoder(w).Encode(s.bases.list())
}

var unknownBaseTmpl = template.Must(template.New("").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>unknown base — perflab</title>
<link rel="stylesheet" href="/ui/assets/style.css"></head>
<body><main id="content"><div id="error" class="error" role="alert">base {{.ID}}: this server does not hold this base profile (it was restarted, or the base was dropped for newer ones). Upload it again.</div>
<p><a id="without-base" href="{{.Without}}">Open this view without the base</a></p></main></body></html>
`))

// unknownBase answers a URL naming a base the server does not hold: 404,
// with a link to the same view without it.
func (s *Server) unknownBase(w http.ResponseWriter, r *http.Request, id string) {
	q := r.URL.Query()
	q.Del(ParamBase)
	u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	if !strings.HasPrefix(r.URL.Path, "/ui/") || strings.HasPrefix(r.URL.Path, "/ui/api/") {
		http.Error(w, fmt.Sprintf("base %q: not held by this server; upload it again", id), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusNotFound)
	unknownBaseTmpl.Execute(w, struct{ ID, Without string }{id, u.String()})
}
