package report

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
)

// applyFilters removes samples and frames as -focus, -ignore, -hide,
// -show, -show_from, -tagfocus and -tagignore ask, in pprof's order, and
// warns about expressions that matched nothing.
func applyFilters(p *profile.Profile, o *Options, units map[string]string) error {
	x, err := compileFilters(o, units)
	if err != nil {
		return err
	}
	focus, ignore, hide, show, showFrom := x.focus, x.ignore, x.hide, x.show, x.showFrom
	tagFocus, tagIgnore := x.tagFocus, x.tagIgnore
	fm, im, hm, sm := p.FilterSamplesByName(focus, ignore, hide, show)
	warnIf(o.Warnings, focus != nil && !fm, "Focus")
	warnIf(o.Warnings, ignore != nil && !im, "Ignore")
	warnIf(o.Warnings, hide != nil && !hm, "Hide")
	warnIf(o.Warnings, show != nil && !sm, "Show")
	sfm := p.ShowFrom(showFrom)
	warnIf(o.Warnings, showFrom != nil && !sfm, "ShowFrom")
	if tagFocus != nil || tagIgnore != nil {
		tfm, tim := p.FilterSamplesByTag(tagFocus, tagIgnore)
		warnIf(o.Warnings, tagFocus != nil && !tfm, "TagFocus")
		warnIf(o.Warnings, tagIgnore != nil && !tim, "TagIgnore")
	}
	return nil
}

// filters are the compiled filter expressions of Options.
type filters struct {
	focus, ignore, hide, show, showFrom *regexp.Regexp
	tagFocus, tagIgnore                 profile.TagMatch
}

// compileFilters compiles o's filter expressions; the error names the
// flag of the one that does not compile.
func compileFilters(o *Options, units map[string]string) (*filters, error) {
	var err error
	rx := func(name, v string) *regexp.Regexp {
		if v == "" || err != nil {
			return nil
		}
		var r *regexp.Regexp
		if r, err = regexp.Compile(v); err != nil {
			err = fmt.Errorf("parsing %s regexp: %w", name, err)
		}
		return r
	}
	x := &filters{focus: rx("focus", o.Focus), ignore: rx("ignore", o.Ignore), hide: rx("hide", o.Hide),
		show: rx("show", o.Show), showFrom: rx("show_from", o.ShowFrom)}
	if err != nil {
		return nil, err
	}
	if x.tagFocus, err = compileTagFilter("tagfocus", o.TagFocus, units, o.Warnings); err != nil {
		return nil, err
	}
	if x.tagIgnore, err = compileTagFilter("tagignore", o.TagIgnore, units, o.Warnings); err != nil {
		return nil, err
	}
	return x, nil
}

func warnIf(w io.Writer, cond bool, what string) {
	if cond && w != nil {
		fmt.Fprintf(w, "%s expression matched no samples\n", what)
	}
}

var tagRangeRx = regexp.MustCompile("([+-]?[[:digit:]]+)([[:alpha:]]+)?")

// compileTagFilter turns a -tagfocus or -tagignore value into a sample
// predicate: "key=value" limits it to one label key; the value is either a
// numeric range (32kb, 1kb:10kb, 1kb:, :1kb) or comma-separated regexps
// that must all match some "key:value" label.
func compileTagFilter(name, value string, units map[string]string, warn io.Writer) (profile.TagMatch, error) {
	if value == "" {
		return nil, nil
	}
	var key string
	if k, v, ok := strings.Cut(value, "="); ok {
		key, value = k, v
	}
	if inRange := parseTagRange(value); inRange != nil {
		if warn != nil {
			fmt.Fprintf(warn, "%s:Interpreted '%s' as range, not regexp\n", name, value)
		}
		anyIn := func(vals []int64, unit string) bool {
			for _, v := range vals {
				if inRange(v, unit) {
					return true
				}
			}
			return false
		}
		if key == "" {
			return func(s *profile.Sample) bool {
				for k, vals := range s.NumLabel {
					if anyIn(vals, units[k]) {
						return true
					}
				}
				return false
			}, nil
		}
		return func(s *profile.Sample) bool {
			vals, ok := s.NumLabel[key]
			return ok && anyIn(vals, units[key])
		}, nil
	}
	var rxs []*regexp.Regexp
	for _, part := range strings.Split(value, ",") {
		r, err := regexp.Compile(part)
		if err != nil {
			return nil, fmt.Errorf("parsing %s regexp: %w", name, err)
		}
		rxs = append(rxs, r)
	}
	if key == "" {
		return func(s *profile.Sample) bool { return allMatchSomeLabel(rxs, s) }, nil
	}
	return func(s *profile.Sample) bool {
		for _, r := range rxs {
			for _, v := range s.Label[key] {
				if r.MatchString(v) {
					return true
				}
			}
		}
		return false
	}, nil
}

// allMatchSomeLabel reports whether every regexp matches at least one of
// the sample's labels written as "key:value".
func allMatchSomeLabel(rxs []*regexp.Regexp, s *profile.Sample) bool {
next:
	for _, r := range rxs {
		for k, vals := range s.Label {
			for _, v := range vals {
				if r.MatchString(k + ":" + v) {
					continue next
				}
			}
		}
		return false
	}
	return true
}

// parseTagRange parses a numeric label range such as "32kb", "1kb:10kb",
// "1kb:" or ":1kb" into a predicate on (value, unit), or returns nil if
// filter is not a range.
func parseTagRange(filter string) func(int64, string) bool {
	m := tagRangeRx.FindAllStringSubmatch(filter, 2)
	if len(m) == 0 {
		return nil
	}
	lo, err := strconv.ParseInt(m[0][1], 10, 64)
	if err != nil {
		return nil
	}
	loV, u := scale(lo, m[0][2], m[0][2])
	in := func(v int64, vu string) (float64, bool) {
		sv, su := scale(v, vu, u)
		return sv, su == u
	}
	if len(m) == 1 {
		switch filter {
		case m[0][0]:
			return func(v int64, vu string) bool { sv, ok := in(v, vu); return ok && sv == loV }
		case m[0][0] + ":":
			return func(v int64, vu string) bool { sv, ok := in(v, vu); return ok && sv >= loV }
		case ":" + m[0][0]:
			return func(v int64, vu string) bool { sv, ok := in(v, vu); return ok && sv <= loV }
		}
		return nil
	}
	if filter != m[0][0]+":"+m[1][0] {
		return nil
	}
	hi, err := strconv.ParseInt(m[1][1], 10, 64)
	if err != nil {
		return nil
	}
	hiV, u2 := scale(hi, m[1][2], u)
	if u2 != u {
		return nil
	}
	return func(v int64, vu string) bool { sv, ok := in(v, vu); return ok && sv >= loV && sv <= hiV }
}
