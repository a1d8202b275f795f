package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/store"
)

// Options configure a Reader.
type Options struct {
	// Token, if not "", is sent as "Authorization: Bearer <Token>".
	Token string
	// MaxBytes bounds one answer, as read and, for a profile, once
	// inflated; 0 means profiles.DefaultMaxBytes.
	MaxBytes int64
	// Client makes the requests; nil means a client of its own, with a
	// timeout of Timeout.
	Client *http.Client
	// Timeout bounds each request when Client is nil; 0 means 10 minutes.
	Timeout time.Duration
}

// A Reader is a store.Reader that asks a perflab server's read API: its
// answers are those of the store behind the server. Its methods may be
// called concurrently.
type Reader struct {
	base *url.URL
	opts Options
}

var _ store.Reader = (*Reader)(nil)

// Open returns a Reader of the perflab server at rawURL (http or https,
// with or without a path prefix), after asking it for its Stats, so that
// a wrong address or token is an error at once.
func Open(ctx context.Context, rawURL string, opts Options) (*Reader, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("perflab server %q: want an http:// or https:// URL", rawURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment, u.User = "", "", nil
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = profiles.DefaultMaxBytes
	}
	if opts.Client == nil {
		timeout := opts.Timeout
		if timeout <= 0 {
			timeout = 10 * time.Minute
		}
		opts.Client = &http.Client{Timeout: timeout}
	}
	r := &Reader{base: u, opts: opts}
	if _, err := r.Stats(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// URL returns the server's URL.
func (r *Reader) URL() string { return r.base.String() }

// Close releases the Reader's idle connections.
func (r *Reader) Close() error {
	r.opts.Client.CloseIdleConnections()
	return nil
}

// ProfileTypes asks the server (see store.Reader).
func (r *Reader) ProfileTypes(ctx context.Context, sel store.Selection) ([]store.ProfileType, error) {
	var ids []string
	if err := r.getJSON(ctx, PathProfileTypes, selection(sel), &ids); err != nil {
		return nil, err
	}
	var types []store.ProfileType
	for _, id := range ids {
		t, err := store.ParseProfileType(id)
		if err != nil {
			return nil, r.errorf(PathProfileTypes, "%w", err)
		}
		types = append(types, t)
	}
	return types, nil
}

// LabelNames asks the server (see store.Reader).
func (r *Reader) LabelNames(ctx context.Context, sel store.Selection) ([]string, error) {
	var names []string
	err := r.getJSON(ctx, PathLabelNames, selection(sel), &names)
	return emptyNil(names, err)
}

// LabelValues asks the server (see store.Reader).
func (r *Reader) LabelValues(ctx context.Context, sel store.Selection, name string) ([]string, error) {
	q := selection(sel)
	q.Set(paramName, name)
	var values []string
	err := r.getJSON(ctx, PathLabelValues, q, &values)
	return emptyNil(values, err)
}

// emptyNil returns nil for an empty list, as the stores answer.
func emptyNil(s []string, err error) ([]string, error) {
	if len(s) == 0 || err != nil {
		return nil, err
	}
	return s, nil
}

// Series asks the server (see store.Reader).
func (r *Reader) Series(ctx context.Context, sel store.Selection) ([]store.Labels, error) {
	var series []jsonLabels
	if err := r.getJSON(ctx, PathSeries, selection(sel), &series); err != nil {
		return nil, err
	}
	var out []store.Labels
	for _, ls := range series {
		out = append(out, ls.labels())
	}
	return out, nil
}

// Merge asks the server (see store.Reader).
func (r *Reader) Merge(ctx context.Context, sel store.Selection) (*profile.Profile, error) {
	return r.getProfile(ctx, PathMerge, selection(sel))
}

// Totals asks the server (see store.Reader).
func (r *Reader) Totals(ctx context.Context, q store.TotalsQuery) ([]store.TimeSeries, error) {
	v := url.Values{}
	encodeTotals(v, q)
	var series []jsonSeries
	if err := r.getJSON(ctx, PathTotals, v, &series); err != nil {
		return nil, err
	}
	var out []store.TimeSeries
	for _, s := range series {
		ts := store.TimeSeries{Labels: s.Labels.labels()}
		for _, p := range s.Points {
			ts.Points = append(ts.Points, store.Point{Time: p.Time, Value: p.Value})
		}
		out = append(out, ts)
	}
	return out, nil
}

// Profiles asks the server (see store.Reader).
func (r *Reader) Profiles(ctx context.Context, sel store.Selection, limit int) ([]store.ProfileInfo, error) {
	q := selection(sel)
	if limit > 0 {
		q.Set(paramLimit, strconv.Itoa(limit))
	}
	var infos []jsonInfo
	if err := r.getJSON(ctx, PathProfiles, q, &infos); err != nil {
		return nil, err
	}
	var out []store.ProfileInfo
	for _, in := range infos {
		out = append(out, store.ProfileInfo{ID: in.ID, Labels: in.Labels.labels(), Time: in.Time,
			Duration: time.Duration(in.Duration), Total: in.Total})
	}
	return out, nil
}

// Profile asks the server (see store.Reader).
func (r *Reader) Profile(ctx context.Context, id string) (*profile.Profile, error) {
	return r.getProfile(ctx, PathProfile, url.Values{paramID: {id}})
}

// Stats asks the server (see store.Reader).
func (r *Reader) Stats(ctx context.Context) (store.Stats, error) {
	var st jsonStats
	if err := r.getJSON(ctx, PathStats, nil, &st); err != nil {
		return store.Stats{}, err
	}
	out := store.Stats{Profiles: st.Profiles, Series: st.Series, Bytes: st.Bytes}
	if st.Oldest != nil && st.Newest != nil {
		out.Oldest, out.Newest = *st.Oldest, *st.Newest
	}
	return out, nil
}

// selection returns the parameters of sel.
func selection(sel store.Selection) url.Values {
	q := url.Values{}
	EncodeSelection(q, sel)
	return q
}

// getJSON asks path with the parameters q and decodes the JSON answer
// into v.
func (r *Reader) getJSON(ctx context.Context, path string, q url.Values, v any) error {
	body, err := r.get(ctx, path, q, profiles.NewBudget(r.opts.MaxBytes))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return r.errorf(path, "the answer is not the JSON expected: %w", err)
	}
	return nil
}

// getProfile asks path with the parameters q for a profile, and decodes
// it within Options.MaxBytes.
func (r *Reader) getProfile(ctx context.Context, path string, q url.Values) (*profile.Profile, error) {
	budget := profiles.NewBudget(r.opts.MaxBytes) // the answer and its decompression, together
	body, err := r.get(ctx, path, q, budget)
	if err != nil {
		return nil, err
	}
	p, err := profiles.ParseData(r.endpoint(path), body, profiles.Options{MaxBytes: r.opts.MaxBytes, Budget: budget})
	if err != nil {
		return nil, fmt.Errorf("perflab server: %w", err)
	}
	return p, nil
}

// endpoint returns the URL of path, without parameters, to name it in
// errors.
func (r *Reader) endpoint(path string) string { return r.base.String() + path }

// get asks path with the parameters q and returns the answer's body,
// read in chunks taken from budget, so that an answer larger than the
// budget allocates no more than it. An answer other than 200 is an error
// that wraps the store errors the server names.
func (r *Reader) get(ctx context.Context, path string, q url.Values, budget *profiles.Budget) ([]byte, error) {
	u := *r.base
	u.Path += path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, r.errorf(path, "%w", err)
	}
	if r.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.opts.Token)
	}
	resp, err := r.opts.Client.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, r.errorf(path, "%w", ctxErr)
		}
		return nil, r.errorf(path, "%w", unwrapURLError(err))
	}
	defer resp.Body.Close()
	body, err := pprofproto.ReadAll(resp.Body, resp.ContentLength, budget)
	switch {
	case errors.Is(err, pprofproto.ErrTooLarge):
		return nil, r.errorf(path, "%w: the answer is larger than %d bytes", profiles.ErrTooLarge, r.opts.MaxBytes)
	case err != nil:
		return nil, r.errorf(path, "reading the answer: %w", err)
	case resp.StatusCode != http.StatusOK:
		return nil, r.statusError(path, resp, body)
	}
	return body, nil
}

// statusError returns the error of an answer other than 200: its status
// and first line, wrapping the store errors the server names.
func (r *Reader) statusError(path string, resp *http.Response, body []byte) error {
	msg, _, _ := strings.Cut(strings.TrimSpace(string(body)), "\n")
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	if resp.StatusCode == http.StatusUnauthorized {
		msg += " (the server needs a token: -token or $PERFLAB_TOKEN)"
	}
	errs := errorsNamed(resp.Header.Get(errorHeader))
	return &serverError{where: r.endpoint(path), status: resp.Status, msg: msg, errs: errs}
}

// A serverError is a failure the server answered with.
type serverError struct {
	where, status, msg string
	errs               []error
}

func (e *serverError) Error() string   { return fmt.Sprintf("%s: %s: %s", e.where, e.status, e.msg) }
func (e *serverError) Unwrap() []error { return e.errs }

// errorf returns an error about path that names its endpoint.
func (r *Reader) errorf(path, format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{r.endpoint(path)}, args...)...)
}

// unwrapURLError returns the cause of a *url.Error, whose message would
// repeat the URL with its parameters.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
