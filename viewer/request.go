package viewer

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
)

// The viewer's URL parameters beyond pprof's, which every page keeps
// (web.Options.Carry): the selection as the read API names it, one
// stored profile, and the base of a comparison.
const (
	paramQuery     = "query"
	paramType      = "type"
	paramFrom      = "from"
	paramUntil     = "until"
	paramID        = "id"
	paramBaseQuery = "base_query"
	paramBaseFrom  = "base_from"
	paramBaseUntil = "base_until"
)

// carried lists them, for web.Options.Carry.
var carried = []string{paramQuery, paramType, paramFrom, paramUntil, paramID, paramBaseQuery, paramBaseFrom, paramBaseUntil}

// The selection of a URL without parameters: the last hour of CPU
// profiles of every series.
const (
	defaultType = "cpu"
	defaultFrom = "now-1h"
)

// A request is what a URL asks the views of: a selection, possibly
// compared with a base, or one stored profile.
type request struct {
	sel  store.Selection
	base *store.Selection // the diff base, or nil
	id   string           // one stored profile, or ""
	key  string           // the canonical form, for the cache
}

// resolve reads the request of the URL parameters q at time now. The
// relative times are resolved against now and the range aligned to the
// chart's step (see align), so that the key is the same for every
// request of the same step.
func resolve(q url.Values, now time.Time) (request, error) {
	var req request
	if req.id = q.Get(paramID); req.id != "" {
		req.key = "id:" + req.id
		return req, nil
	}
	sel, err := selection(q, "", now)
	if err != nil {
		return req, err
	}
	req.sel = sel
	req.key = key(sel)
	if q.Get(paramBaseQuery) != "" || q.Get(paramBaseFrom) != "" || q.Get(paramBaseUntil) != "" {
		b, err := selection(q, "base_", now)
		if err != nil {
			return req, err
		}
		req.base = &b
		req.key += " base " + key(b)
	}
	return req, nil
}

// selection reads the selection of the parameters with prefix: those
// missing take the unprefixed ones' values, then the defaults.
func selection(q url.Values, prefix string, now time.Time) (store.Selection, error) {
	v := url.Values{}
	for _, k := range []string{paramQuery, paramType, paramFrom, paramUntil} {
		s := q.Get(prefix + k)
		if s == "" && prefix != "" {
			s = q.Get(k)
		}
		if s != "" {
			v.Set(k, s)
		}
	}
	if v.Get(paramType) == "" {
		v.Set(paramType, defaultType)
	}
	if v.Get(paramFrom) == "" {
		v.Set(paramFrom, defaultFrom)
	}
	sel, err := remote.DecodeSelection(v, now)
	if err != nil {
		return sel, fmt.Errorf("%sselection: %w", prefix, err)
	}
	if sel.End.IsZero() {
		sel.End = now
	}
	if sel.Start.Before(sel.End) {
		step := Step(sel.End.Sub(sel.Start))
		if relative(v.Get(paramFrom)) {
			sel.Start = align(sel.Start, step)
		}
		if relative(v.Get(paramUntil)) {
			sel.End = align(sel.End, step)
		}
	}
	if !sel.Start.Before(sel.End) {
		return sel, fmt.Errorf("%sselection: %w: from %s is not before until %s", prefix, store.ErrInvalid,
			sel.Start.UTC().Format(time.RFC3339), sel.End.UTC().Format(time.RFC3339))
	}
	return sel, nil
}

// relative reports whether a from or until parameter is relative to now.
func relative(s string) bool {
	return s == "" || s == "now" || strings.HasPrefix(s, "now-") || strings.HasPrefix(s, "-")
}

// maxPoints is about how many points the chart draws over a range.
const maxPoints = 240

// minStep is the finest step: the interval of the usual scrapes.
const minStep = 10 * time.Second

// Step returns the chart's step for a range of d: about d/240, rounded up
// to a whole number of seconds, and at least 10 s. viewer.js computes
// the same.
func Step(d time.Duration) time.Duration {
	s := (d + maxPoints - 1) / maxPoints
	s = (s + time.Second - 1).Truncate(time.Second)
	return max(s, minStep)
}

// align returns the first multiple of step since the Unix epoch after
// t: every time of one step has the same, so that the requests of a
// relative range within a step share one merge, and the range it ends
// holds what came until t.
func align(t time.Time, step time.Duration) time.Time {
	return time.Unix(0, (t.UnixNano()/int64(step)+1)*int64(step)).UTC()
}

// key is the canonical form of sel: its type, its matchers sorted, and
// its range.
func key(sel store.Selection) string {
	ms := make([]string, len(sel.Selector))
	for i, m := range sel.Selector {
		ms[i] = m.String()
	}
	slices.Sort(ms)
	return sel.Type.ID() + " {" + strings.Join(ms, ", ") + "} " + strconv.FormatInt(sel.Start.Unix(), 10) + ".." + strconv.FormatInt(sel.End.Unix(), 10)
}

// describe names sel for titles and messages.
func describe(sel store.Selection) string {
	return fmt.Sprintf("%s %s from %s until %s", sel.Type.ID(), sel.Selector.String(),
		sel.Start.UTC().Format(time.RFC3339), sel.End.UTC().Format(time.RFC3339))
}

func (r request) describe() string {
	if r.id != "" {
		return "profile " + r.id
	}
	return describe(r.sel)
}

func (r request) describeBase() string {
	if r.base == nil {
		return ""
	}
	return describe(*r.base)
}
