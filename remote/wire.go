package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// The read API's paths, each a method of store.Reader.
const (
	PathProfileTypes = "/api/v1/profile_types"
	PathLabelNames   = "/api/v1/label_names"
	PathLabelValues  = "/api/v1/label_values"
	PathSeries       = "/api/v1/series"
	PathMerge        = "/api/v1/merge"
	PathTotals       = "/api/v1/totals"
	PathProfiles     = "/api/v1/profiles"
	PathProfile      = "/api/v1/profile"
	PathStats        = "/api/v1/stats"
)

// Prefix is the path below which the read API's paths all are.
const Prefix = "/api/v1/"

// The URL parameters of the read API.
const (
	paramQuery   = "query"    // the label selector, in Prometheus syntax
	paramType    = "type"     // the profile type: its ID or a kind's short name
	paramFrom    = "from"     // the range's start: see store.ParseTime
	paramUntil   = "until"    // the range's end (excluded)
	paramName    = "name"     // LabelValues' label name
	paramStep    = "step"     // Totals' step: see store.ParseDuration
	paramGroupBy = "group_by" // Totals' group-by labels, one parameter each
	paramFocus   = "focus"    // Totals' focus: a regular expression
	paramLimit   = "limit"    // Profiles' limit
	paramID      = "id"       // Profile's ID
)

// EncodeSelection adds the parameters of sel to q: query, type, from and
// until; a zero part is left out.
func EncodeSelection(q url.Values, sel store.Selection) {
	if len(sel.Selector) > 0 {
		q.Set(paramQuery, sel.Selector.String())
	}
	if sel.Type != (store.ProfileType{}) {
		q.Set(paramType, sel.Type.ID())
	}
	if !sel.Start.IsZero() {
		q.Set(paramFrom, sel.Start.UTC().Format(time.RFC3339Nano))
	}
	if !sel.End.IsZero() {
		q.Set(paramUntil, sel.End.UTC().Format(time.RFC3339Nano))
	}
}

// DecodeSelection reads the selection of the parameters q; from and until
// may be relative to now (see store.ParseTime). Its errors wrap
// store.ErrInvalid.
func DecodeSelection(q url.Values, now time.Time) (store.Selection, error) {
	var sel store.Selection
	var err error
	if sel.Selector, err = store.ParseSelector(q.Get(paramQuery)); err != nil {
		return sel, invalid(paramQuery, err)
	}
	if s := q.Get(paramType); s != "" {
		if sel.Type, err = store.ParseProfileType(s); err != nil {
			return sel, invalid(paramType, err)
		}
	}
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{paramFrom, &sel.Start}, {paramUntil, &sel.End}} {
		if s := q.Get(p.name); s != "" {
			if *p.t, err = store.ParseTime(s, now); err != nil {
				return sel, invalid(p.name, err)
			}
		}
	}
	return sel, nil
}

// encodeTotals adds q's parts beyond its selection to v.
func encodeTotals(v url.Values, q store.TotalsQuery) {
	EncodeSelection(v, q.Selection)
	v.Set(paramStep, q.Step.String())
	for _, name := range q.GroupBy {
		v.Add(paramGroupBy, name)
	}
	if q.Focus != nil {
		v.Set(paramFocus, q.Focus.String())
	}
}

// decodeTotals reads the TotalsQuery of v.
func decodeTotals(v url.Values, now time.Time) (store.TotalsQuery, error) {
	sel, err := DecodeSelection(v, now)
	q := store.TotalsQuery{Selection: sel, GroupBy: v[paramGroupBy]}
	if err != nil {
		return q, err
	}
	if s := v.Get(paramStep); s != "" {
		if q.Step, err = store.ParseDuration(s); err != nil {
			return q, invalid(paramStep, err)
		}
	}
	if s := v.Get(paramFocus); s != "" {
		if q.Focus, err = regexp.Compile(s); err != nil {
			return q, invalid(paramFocus, err)
		}
	}
	return q, nil
}

// decodeLimit reads Profiles' limit: 0 (no limit) when absent.
func decodeLimit(v url.Values) (int, error) {
	s := v.Get(paramLimit)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, invalid(paramLimit, errors.New("want a count, 0 for all"))
	}
	return n, nil
}

// invalid returns the error of a bad parameter, wrapping store.ErrInvalid.
func invalid(param string, err error) error {
	return fmt.Errorf("parameter %s: %w (%w)", param, err, store.ErrInvalid)
}

// errorKinds is the one table of the store's errors on the wire: the
// status the server answers a method's error with, and the name it gives
// each error the failure wraps in the header errorHeader, so that the
// client's error wraps the same ones (errors.Is works across the wire).
var errorKinds = []errorKind{
	{store.ErrNotFound, "not-found", http.StatusNotFound},
	{store.ErrInvalid, "invalid", http.StatusBadRequest},
	{store.ErrLimit, "limit", http.StatusBadRequest},
	{store.ErrBusy, "busy", http.StatusTooManyRequests},
	{context.Canceled, "canceled", http.StatusServiceUnavailable},
	{context.DeadlineExceeded, "deadline", http.StatusServiceUnavailable},
}

type errorKind struct {
	err    error
	name   string
	status int
}

// errorHeader names the store errors an answer's failure wraps.
const errorHeader = "Perflab-Error"

// errorStatus returns the status of err and the names of the store
// errors it wraps.
func errorStatus(err error) (int, []string) {
	status := 0
	var names []string
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			names = append(names, k.name)
			if status == 0 {
				status = k.status
			}
		}
	}
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return status, names
}

// errorsNamed returns the store errors header names.
func errorsNamed(header string) []error {
	var errs []error
	for name := range strings.SplitSeq(header, ",") {
		i := slices.IndexFunc(errorKinds, func(k errorKind) bool { return k.name == strings.TrimSpace(name) })
		if i >= 0 {
			errs = append(errs, errorKinds[i].err)
		}
	}
	return errs
}

// jsonLabels is a series' labels as JSON carries them: an object of names
// and values (Labels are sorted by name, each name once, so no order is
// lost).
type jsonLabels map[string]string

func toJSON(ls store.Labels) jsonLabels {
	m := make(jsonLabels, len(ls))
	for _, l := range ls {
		m[l.Name] = l.Value
	}
	return m
}

func (m jsonLabels) labels() store.Labels {
	ls := make(store.Labels, 0, len(m))
	for name, value := range m {
		ls = append(ls, store.Label{Name: name, Value: value})
	}
	return ls.Sort()
}

// The JSON answers of the read API.
type (
	jsonSeries struct {
		Labels jsonLabels  `json:"labels"`
		Points []jsonPoint `json:"points"`
	}
	jsonPoint struct {
		Time  time.Time `json:"time"`
		Value int64     `json:"value"`
	}
	jsonInfo struct {
		ID       string     `json:"id"`
		Labels   jsonLabels `json:"labels"`
		Time     time.Time  `json:"time"`
		Duration int64      `json:"duration_nanos"`
		Total    int64      `json:"total"`
	}
	jsonStats struct {
		Profiles int64      `json:"profiles"`
		Series   int        `json:"series"`
		Oldest   *time.Time `json:"oldest,omitempty"`
		Newest   *time.Time `json:"newest,omitempty"`
		Bytes    int64      `json:"bytes"`
	}
)
