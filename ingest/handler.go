package ingest

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/store"
)

// The paths Handler serves.
const (
	// PathIngest is Pyroscope's ingest endpoint, as its SDKs call it.
	PathIngest = "/ingest"
	// PathPush is Pyroscope's Push API over the connect protocol.
	PathPush = pushv1connect.PusherServicePushProcedure
)

// A Handler receives pushed profiles and writes them to a store. It
// serves PathIngest and PathPush; mount it at both, or at "/" under a
// router that sends it those paths. Its methods may be called
// concurrently.
type Handler struct {
	store store.Store
	opts  Options
	mem   gauge
	push  http.Handler
	errw  *connect.ErrorWriter
}

var (
	_ http.Handler                       = (*Handler)(nil)
	_ pushv1connect.PusherServiceHandler = (*Handler)(nil)
)

// NewHandler returns a Handler that writes to st within opts' limits.
func NewHandler(st store.Store, opts Options) *Handler {
	h := &Handler{store: st, opts: opts.withDefaults()}
	h.mem.limit = h.opts.MemoryBudget
	_, h.push = pushv1connect.NewPusherServiceHandler(h, connect.WithReadMaxBytes(int(min(h.opts.MaxRequestBytes, 1<<31-1))))
	h.errw = connect.NewErrorWriter()
	return h
}

// ServeHTTP answers POST /ingest and POST /push.v1.PusherService/Push.
// Every error is one line of text (on the Push API, the connect error's
// message).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case PathIngest:
		h.serveIngest(w, r)
	case PathPush:
		h.servePush(w, r)
	default:
		http.Error(w, "not found: perflab takes pushes at "+PathIngest+" and "+PathPush, http.StatusNotFound)
	}
}

// InUse returns the bytes of the memory budget that the requests in
// flight hold now.
func (h *Handler) InUse() int64 { return h.mem.inUse() }

// serveIngest answers POST /ingest: it reads the body within the limits,
// decodes and checks the profile, and writes it.
func (h *Handler) serveIngest(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed: POST a profile to "+PathIngest, http.StatusMethodNotAllowed)
		return
	}
	res := &reservation{g: &h.mem}
	defer res.release()
	err := h.ingest(r, res)
	if err != nil {
		http.Error(w, oneLine(err.Error()), Status(err))
		return
	}
	w.WriteHeader(http.StatusOK)
}

// ingest reads, checks and writes the profile of one /ingest request.
func (h *Handler) ingest(r *http.Request, res *reservation) error {
	body, err := h.readBody(r, res)
	if err != nil {
		return err
	}
	now := h.opts.Now()
	quota := &bodyQuota{res: res, left: 2*int64(len(body)) + 128<<10}
	req, err := parseIngest(r.URL.Query(), r.Header.Get("Content-Type"), body, quota, now)
	if err != nil {
		return err
	}
	p, err := h.ingestProfile(res, req, now)
	if err != nil {
		return err
	}
	if err := h.store.Write(r.Context(), p); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// readBody reads a request's body within Options.MaxRequestBytes, taking
// its bytes from res as it reads them.
func (h *Handler) readBody(r *http.Request, res *reservation) ([]byte, error) {
	max := h.opts.MaxRequestBytes
	if r.ContentLength > max {
		return nil, tooLargef("body: %d bytes, more than the limit of %d", r.ContentLength, max)
	}
	q := &bodyQuota{res: res, left: max}
	body, err := pprofproto.ReadAll(r.Body, r.ContentLength, q)
	switch {
	case errors.Is(err, pprofproto.ErrTooLarge) && q.busy:
		return nil, ErrBusy
	case errors.Is(err, pprofproto.ErrTooLarge):
		return nil, tooLargef("body: more than the limit of %d bytes", max)
	case err != nil:
		return nil, &kindError{msg: sprintf("body: %v", err), kind: ErrInvalid, cause: err}
	}
	return body, nil
}

// ingestProfile decodes the profile of an /ingest request and gives it
// its series' labels, as Pyroscope does: __name__ from the profile's
// sample types, service_name the application (unless the name's labels
// have one), pyroscope_spy the spyName, and the name's labels.
func (h *Handler) ingestProfile(res *reservation, req ingestRequest, now time.Time) (store.Profile, error) {
	p, err := h.decode(res, "profile", req.Profile)
	if err != nil {
		return store.Profile{}, err
	}
	kind, err := seriesName(p, req.sampleTypeConfig, req.Name.Kind)
	if err != nil {
		return store.Profile{}, err
	}
	ls := req.Name.Labels
	if ls.Get(store.LabelService) == "" {
		ls = ls.With(store.LabelService, req.Name.App)
	}
	ls = ls.With(store.LabelName, kind).With(labelSpy, req.SpyName)
	if err := ls.Check(h.opts.Limits); err != nil {
		return store.Profile{}, fmt.Errorf("name: %w", err)
	}
	// Old SDKs leave the profile's time out, or give it in the wrong
	// unit (a time in 1970): from says when it began.
	if p.TimeNanos == 0 || time.Unix(0, p.TimeNanos).Year() == 1970 {
		p.TimeNanos = cmpOr(req.From, now).UnixNano()
	}
	if p.DurationNanos == 0 && !req.From.IsZero() && req.Until.After(req.From) {
		p.DurationNanos = req.Until.Sub(req.From).Nanoseconds()
	}
	return store.Profile{Labels: ls, Time: time.Unix(0, p.TimeNanos), Profile: p}, nil
}

// labelSpy is the label Pyroscope puts the pushing agent's spyName in.
const labelSpy = "pyroscope_spy"

// cmpOr returns t, or def if t is zero.
func cmpOr(t, def time.Time) time.Time {
	if t.IsZero() {
		return def
	}
	return t
}
