package flame

import (
	"fmt"
	"net/url"
	"strconv"
)

// The URL parameters of a Query, beside pprof's report parameters (f, i,
// h, s, sf, tf, ti, si, g, ...), which none of them shadows; flame.js
// writes the same names.
const (
	ParamPath      = "path"      // repeated: the zoom root's frames, from the root
	ParamMinWidth  = "minwidth"  // fraction of the zoom root
	ParamMaxDepth  = "maxdepth"  // rows below the zoom root
	ParamMaxFrames = "maxframes" // frames at most
	ParamSearch    = "search"    // regexp of frame names
	ParamSandwich  = "sandwich"  // frame name
	ParamReverse   = "reverse"   // "1": the base's shape
	ParamNormalize = "normalize" // "1": base scaled to the new total
)

// ParseQuery reads a Query from URL parameters; an error names the
// parameter. Parameters it does not know are left for others (pprof's).
func ParseQuery(vals url.Values) (Query, error) {
	q := Query{Path: vals[ParamPath], Search: vals.Get(ParamSearch), Sandwich: vals.Get(ParamSandwich)}
	var err error
	num := func(name string, set func(s string) error) {
		if s := vals.Get(name); s != "" && err == nil {
			if e := set(s); e != nil {
				err = fmt.Errorf("parameter %s: %w", name, e)
			}
		}
	}
	num(ParamMinWidth, func(s string) error {
		f, err := strconv.ParseFloat(s, 64)
		if err == nil && !(f >= 0 && f <= 1) {
			err = fmt.Errorf("%q is not between 0 and 1", s)
		}
		q.MinWidth = f
		return err
	})
	intParam := func(p *int) func(string) error {
		return func(s string) error {
			n, err := strconv.Atoi(s)
			if err == nil && n < 0 {
				err = fmt.Errorf("%d is negative", n)
			}
			*p = n
			return err
		}
	}
	num(ParamMaxDepth, intParam(&q.MaxDepth))
	num(ParamMaxFrames, intParam(&q.MaxFrames))
	boolParam := func(p *bool) func(string) error {
		return func(s string) error {
			b, err := strconv.ParseBool(s)
			*p = b
			return err
		}
	}
	num(ParamReverse, boolParam(&q.Reverse))
	num(ParamNormalize, boolParam(&q.Normalize))
	if err != nil {
		return Query{}, err
	}
	return q, nil
}

// Encode returns q's URL parameters, leaving out default values, so that
// ParseQuery(q.Encode()) is q.
func (q Query) Encode() url.Values {
	v := url.Values{}
	for _, p := range q.Path {
		v.Add(ParamPath, p)
	}
	set := func(name, val string, ok bool) {
		if ok {
			v.Set(name, val)
		}
	}
	set(ParamMinWidth, strconv.FormatFloat(q.MinWidth, 'g', -1, 64), q.MinWidth != 0)
	set(ParamMaxDepth, strconv.Itoa(q.MaxDepth), q.MaxDepth != 0)
	set(ParamMaxFrames, strconv.Itoa(q.MaxFrames), q.MaxFrames != 0)
	set(ParamSearch, q.Search, q.Search != "")
	set(ParamSandwich, q.Sandwich, q.Sandwich != "")
	set(ParamReverse, "1", q.Reverse)
	set(ParamNormalize, "1", q.Normalize)
	return v
}
