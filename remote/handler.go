package remote

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/store"
)

// A Handler serves the read API of a store.Reader: GET requests to the
// paths Path*, one for each method of the Reader, whose parameters are
// those of the method and whose answers are JSON, or a gzipped pprof
// profile for Merge and Profile. Mount it at Prefix.
type Handler struct {
	reader store.Reader
	now    func() time.Time
	mux    *http.ServeMux
}

var _ http.Handler = (*Handler)(nil)

// NewHandler returns a Handler that answers from r.
func NewHandler(r store.Reader) *Handler {
	h := &Handler{reader: r, now: time.Now, mux: http.NewServeMux()}
	for path, f := range map[string]func(*http.Request, url.Values) (any, error){
		PathProfileTypes: h.profileTypes,
		PathLabelNames:   h.labelNames,
		PathLabelValues:  h.labelValues,
		PathSeries:       h.series,
		PathMerge:        h.merge,
		PathTotals:       h.totals,
		PathProfiles:     h.profiles,
		PathProfile:      h.profile,
		PathStats:        h.stats,
	} {
		h.mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			v, err := f(r, r.URL.Query())
			if err != nil {
				writeError(w, err)
				return
			}
			write(w, v)
		})
	}
	return h
}

// ServeHTTP answers a request to one of the paths Path*.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, Prefix) {
		http.NotFound(w, r)
		return
	}
	h.mux.ServeHTTP(w, r)
}

func (h *Handler) profileTypes(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	types, err := h.reader.ProfileTypes(r.Context(), sel)
	ids := make([]string, len(types))
	for i, t := range types {
		ids[i] = t.ID()
	}
	return ids, err
}

func (h *Handler) labelNames(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	return nonNil(h.reader.LabelNames(r.Context(), sel))
}

func (h *Handler) labelValues(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	return nonNil(h.reader.LabelValues(r.Context(), sel, q.Get(paramName)))
}

// nonNil returns an empty list for nil, so that JSON has [] rather than null.
func nonNil(s []string, err error) ([]string, error) {
	if s == nil {
		s = []string{}
	}
	return s, err
}

func (h *Handler) series(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	series, err := h.reader.Series(r.Context(), sel)
	out := make([]jsonLabels, len(series))
	for i, ls := range series {
		out[i] = toJSON(ls)
	}
	return out, err
}

func (h *Handler) merge(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	return h.reader.Merge(r.Context(), sel)
}

func (h *Handler) totals(r *http.Request, q url.Values) (any, error) {
	tq, err := decodeTotals(q, h.now())
	if err != nil {
		return nil, err
	}
	series, err := h.reader.Totals(r.Context(), tq)
	out := make([]jsonSeries, len(series))
	for i, ts := range series {
		out[i] = jsonSeries{Labels: toJSON(ts.Labels), Points: make([]jsonPoint, len(ts.Points))}
		for j, p := range ts.Points {
			out[i].Points[j] = jsonPoint{p.Time, p.Value}
		}
	}
	return out, err
}

func (h *Handler) profiles(r *http.Request, q url.Values) (any, error) {
	sel, err := DecodeSelection(q, h.now())
	if err != nil {
		return nil, err
	}
	limit, err := decodeLimit(q)
	if err != nil {
		return nil, err
	}
	infos, err := h.reader.Profiles(r.Context(), sel, limit)
	out := make([]jsonInfo, len(infos))
	for i, in := range infos {
		out[i] = jsonInfo{in.ID, toJSON(in.Labels), in.Time, int64(in.Duration), in.Total}
	}
	return out, err
}

func (h *Handler) profile(r *http.Request, q url.Values) (any, error) {
	return h.reader.Profile(r.Context(), q.Get(paramID))
}

func (h *Handler) stats(r *http.Request, _ url.Values) (any, error) {
	st, err := h.reader.Stats(r.Context())
	out := jsonStats{Profiles: st.Profiles, Series: st.Series, Bytes: st.Bytes}
	if !st.Oldest.IsZero() {
		out.Oldest, out.Newest = &st.Oldest, &st.Newest
	}
	return out, err
}

// write answers with v: a gzipped pprof profile, or JSON. The answer is
// encoded whole before its first byte is written, so that an encoding
// error is an error status.
func write(w http.ResponseWriter, v any) {
	var b bytes.Buffer
	if p, ok := v.(*profile.Profile); ok {
		if err := p.Write(&b); err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="profile.pb.gz"`)
	} else {
		if err := json.NewEncoder(&b).Encode(v); err != nil {
			writeError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(b.Bytes())
}

// writeError answers with err: the status of the store error it wraps, a
// header naming those errors, and its message on one line.
func writeError(w http.ResponseWriter, err error) {
	status, names := errorStatus(err)
	if len(names) > 0 {
		w.Header().Set(errorHeader, strings.Join(names, ","))
	}
	http.Error(w, term.OneLine(err.Error()), status)
}
