package store

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A MatchOp is how a Matcher compares a label's value.
type MatchOp int

// The operators of Prometheus' label matchers.
const (
	MatchEqual     MatchOp = iota // =
	MatchNotEqual                 // !=
	MatchRegexp                   // =~
	MatchNotRegexp                // !~
)

var opText = [...]string{MatchEqual: "=", MatchNotEqual: "!=", MatchRegexp: "=~", MatchNotRegexp: "!~"}

// String returns op as Prometheus writes it: =, !=, =~ or !~.
func (op MatchOp) String() string { return opText[op] }

// A Matcher is one condition of a Selector on one label. A series without
// the label is compared as if its value were "", as Prometheus does.
type Matcher struct {
	Name  string
	Op    MatchOp
	Value string
	re    *regexp.Regexp // for MatchRegexp and MatchNotRegexp
}

// NewMatcher returns the matcher name op value; a regular expression
// matches the whole value, as in Prometheus.
func NewMatcher(name string, op MatchOp, value string) (*Matcher, error) {
	m := &Matcher{Name: name, Op: op, Value: value}
	if !ValidLabelName(name) {
		return nil, fmt.Errorf("label name %q: not [a-zA-Z_][a-zA-Z0-9_.]*", clip(name))
	}
	if op == MatchRegexp || op == MatchNotRegexp {
		if len(value) > maxRegexpLength {
			return nil, fmt.Errorf("%s%s: regular expression of %d bytes, over the limit of %d", name, op, len(value), maxRegexpLength)
		}
		re, err := regexp.Compile("^(?:" + value + ")$")
		if err != nil {
			return nil, fmt.Errorf("%s%s%q: %w", name, op, clip(value), err)
		}
		m.re = re
	}
	return m, nil
}

// maxRegexpLength bounds a matcher's regular expression. Go's regexp runs
// in time linear in its input, but compiling a long one takes memory.
const maxRegexpLength = 4096

// Matches reports whether a label's value (or "", when the series does not
// have the label) satisfies m.
func (m *Matcher) Matches(value string) bool {
	switch m.Op {
	case MatchEqual:
		return value == m.Value
	case MatchNotEqual:
		return value != m.Value
	case MatchRegexp:
		return m.re.MatchString(value)
	default:
		return !m.re.MatchString(value)
	}
}

// String returns m in Prometheus syntax: name="value".
func (m *Matcher) String() string { return m.Name + m.Op.String() + strconv.Quote(m.Value) }

// A Selector picks series by their labels: a series is picked when every
// Matcher matches it. The empty Selector picks every series.
type Selector []*Matcher

// Matches reports whether ls satisfies every matcher of s.
func (s Selector) Matches(ls Labels) bool {
	for _, m := range s {
		if !m.Matches(ls.Get(m.Name)) {
			return false
		}
	}
	return true
}

// String returns s in Prometheus syntax: {a="x", b=~"y.*"}.
func (s Selector) String() string {
	parts := make([]string, len(s))
	for i, m := range s {
		parts[i] = m.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// ParseSelector reads a label selector in Prometheus syntax, as Grafana
// Pyroscope takes them: {service_name="api", version=~"1\\.4.*"}, with the
// operators =, !=, =~ and !~, and values quoted with "", ” or “. A name
// before the braces, process_cpu{...}, means __name__="process_cpu". The
// empty string and {} select every series.
func ParseSelector(s string) (Selector, error) {
	p := &selectorParser{src: s}
	sel, err := p.parse()
	if err != nil {
		return nil, fmt.Errorf("selector %q: %w", clip(s), err)
	}
	return sel, nil
}

type selectorParser struct {
	src string
	pos int
}

func (p *selectorParser) parse() (Selector, error) {
	var sel Selector
	p.space()
	if name := p.name(); name != "" {
		m, err := NewMatcher(LabelName, MatchEqual, name)
		if err != nil {
			return nil, err
		}
		sel = append(sel, m)
		p.space()
	}
	if p.pos == len(p.src) {
		return sel, nil
	}
	if !p.take("{") {
		return nil, p.errorf("want {")
	}
	for {
		p.space()
		if p.take("}") {
			break
		}
		m, err := p.matcher()
		if err != nil {
			return nil, err
		}
		sel = append(sel, m)
		p.space()
		if p.take("}") {
			break
		}
		if !p.take(",") {
			return nil, p.errorf("want , or }")
		}
	}
	p.space()
	if p.pos != len(p.src) {
		return nil, p.errorf("unexpected text after }")
	}
	return sel, nil
}

func (p *selectorParser) matcher() (*Matcher, error) {
	name := p.name()
	if name == "" {
		return nil, p.errorf("want a label name")
	}
	p.space()
	var op MatchOp
	switch {
	case p.take("=~"):
		op = MatchRegexp
	case p.take("!~"):
		op = MatchNotRegexp
	case p.take("!="):
		op = MatchNotEqual
	case p.take("="):
		op = MatchEqual
	default:
		return nil, p.errorf("want =, !=, =~ or !~ after %s", name)
	}
	p.space()
	value, err := p.quoted()
	if err != nil {
		return nil, err
	}
	return NewMatcher(name, op, value)
}

// name reads a label name, or returns "" and reads nothing.
func (p *selectorParser) name() string {
	end := p.pos
	for end < len(p.src) && nameByte(p.src[end], end == p.pos) {
		end++
	}
	name := p.src[p.pos:end]
	p.pos = end
	return name
}

// nameByte reports whether c may stand in a label name, first or not.
func nameByte(c byte, first bool) bool {
	letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	return letter || !first && (c == '.' || '0' <= c && c <= '9')
}

// quoted reads a quoted string: "..." or '...' with Go's escapes, or
// `...` taken as it is.
func (p *selectorParser) quoted() (string, error) {
	if p.pos == len(p.src) {
		return "", p.errorf("want a quoted value")
	}
	q := p.src[p.pos]
	if q != '"' && q != '\'' && q != '`' {
		return "", p.errorf("want a quoted value")
	}
	end := p.pos + 1
	for ; end < len(p.src) && p.src[end] != q; end++ {
		if p.src[end] == '\\' && q != '`' {
			end++
		}
	}
	if end >= len(p.src) {
		return "", p.errorf("unterminated quoted value")
	}
	body := p.src[p.pos+1 : end]
	p.pos = end + 1
	switch q {
	case '`':
		return body, nil
	case '\'':
		body = singleToDouble(body)
	}
	v, err := strconv.Unquote(`"` + body + `"`)
	if err != nil {
		return "", p.errorf("bad escape in quoted value")
	}
	return v, nil
}

// singleToDouble rewrites the body of a '...' string as the body of the
// "..." string with the same value.
func singleToDouble(body string) string {
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(body):
			b.WriteString(body[i : i+2])
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func (p *selectorParser) take(tok string) bool {
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *selectorParser) space() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *selectorParser) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}
