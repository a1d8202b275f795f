package ingest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/store"
)

// unknownService is the service_name Pyroscope gives a pushed series
// without one.
const unknownService = "unknown_service"

// servePush takes the memory a Push request's body will hold before the
// connect handler reads it: twice the body (the bytes, and the message
// decoded from them), or twice the limit when the body's size is not
// known or it is compressed.
func (h *Handler) servePush(w http.ResponseWriter, r *http.Request) {
	max := h.opts.MaxRequestBytes
	if r.ContentLength > max {
		h.errw.Write(w, r, connectError(tooLargef("body: %d bytes, more than the limit of %d", r.ContentLength, max)))
		return
	}
	need := 2 * max
	if r.ContentLength >= 0 && !compressed(r) {
		need = 2 * r.ContentLength
	}
	res := &reservation{g: &h.mem}
	defer res.release()
	if err := res.take(need); err != nil {
		h.errw.Write(w, r, connectError(err))
		return
	}
	h.push.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), reservationKey{}, res)))
}

// compressed reports whether a connect request's body is compressed.
func compressed(r *http.Request) bool {
	for _, h := range []string{"Content-Encoding", "Connect-Content-Encoding"} {
		if e := r.Header.Get(h); e != "" && e != "identity" {
			return true
		}
	}
	return false
}

// reservationKey is the context key of a Push request's reservation.
type reservationKey struct{}

// Push is Pyroscope's Push API: it decodes and checks every profile of
// every series, then writes them all in one Store.Write call. A series'
// labels are stored as given, less Pyroscope's private ones (names that
// begin with "__", other than __name__), with service_name unknown_service
// when it has none; __name__ is required.
func (h *Handler) Push(ctx context.Context, req *connect.Request[pushv1.PushRequest]) (*connect.Response[pushv1.PushResponse], error) {
	res, ok := ctx.Value(reservationKey{}).(*reservation)
	if !ok { // called directly, not through ServeHTTP
		res = &reservation{g: &h.mem}
		defer res.release()
	}
	ps, err := h.pushProfiles(res, req.Msg)
	if err != nil {
		return nil, connectError(err)
	}
	if len(ps) > 0 {
		if err := h.store.Write(ctx, ps...); err != nil {
			return nil, connectError(fmt.Errorf("store: %w", err))
		}
	}
	return connect.NewResponse(&pushv1.PushResponse{}), nil
}

// pushProfiles decodes and checks the profiles of a Push request.
func (h *Handler) pushProfiles(res *reservation, req *pushv1.PushRequest) ([]store.Profile, error) {
	var ps []store.Profile
	for i, series := range req.GetSeries() {
		ls, err := h.pushLabels(series.GetLabels())
		if err != nil {
			return nil, fmt.Errorf("series %d: %w", i, err)
		}
		for j, sample := range series.GetSamples() {
			p, err := h.decode(res, fmt.Sprintf("series %d, profile %d", i, j), sample.GetRawProfile())
			if err != nil {
				return nil, err
			}
			if p.TimeNanos == 0 {
				p.TimeNanos = h.opts.Now().UnixNano()
			}
			ps = append(ps, store.Profile{Labels: ls, Time: time.Unix(0, p.TimeNanos), Profile: p})
		}
	}
	return ps, nil
}

// pushLabels returns a pushed series' labels as they are stored.
func (h *Handler) pushLabels(pairs []*typesv1.LabelPair) (store.Labels, error) {
	if len(pairs) > maxNameLabels {
		return nil, fmt.Errorf("%d labels, more than the limit of %d per series: %w", len(pairs), h.opts.Limits.MaxLabels, store.ErrLimit)
	}
	ls := make(store.Labels, 0, len(pairs)+1)
	for _, l := range pairs {
		name := l.GetName()
		if !store.ValidLabelName(name) {
			return nil, invalidf("label name %q: not [a-zA-Z_][a-zA-Z0-9_.]*", clip(name))
		}
		if name != store.LabelName && strings.HasPrefix(name, "__") || l.GetValue() == "" {
			continue
		}
		ls = append(ls, store.Label{Name: name, Value: l.GetValue()})
	}
	n := len(ls)
	if ls = ls.Sort(); len(ls) != n {
		return nil, invalidf("a label name given twice")
	}
	if kind := ls.Get(store.LabelName); !validKindName(kind) {
		return nil, invalidf("profile type: __name__ %q: want the profile's kind, such as process_cpu or memory ([a-zA-Z_][a-zA-Z0-9_]*)", clip(kind))
	}
	if ls.Get(store.LabelService) == "" {
		ls = ls.With(store.LabelService, unknownService)
	}
	if err := ls.Check(h.opts.Limits); err != nil {
		return nil, err
	}
	return ls, nil
}

// validKindName reports whether name can be a series' __name__: a
// non-empty [a-zA-Z_][a-zA-Z0-9_]*.
func validKindName(name string) bool {
	return store.ValidLabelName(name) && !strings.Contains(name, ".")
}
