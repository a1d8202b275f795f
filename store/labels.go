package store

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The labels every series has.
const (
	// LabelName holds the profile's kind: process_cpu, memory, goroutines,
	// mutex, block, wall (see ProfileType.Name).
	LabelName = "__name__"
	// LabelService holds the service: a scrape job's name, or the
	// application name a program pushes under.
	LabelService = "service_name"
)

// A Label is one name="value" pair of a series.
type Label struct {
	Name, Value string
}

// Labels name a series: sorted by name, each name once.
type Labels []Label

// NewLabels returns the labels of name, value pairs, sorted; a later pair
// replaces an earlier one of the same name. It panics on an odd count: it
// is meant for literals.
func NewLabels(pairs ...string) Labels {
	if len(pairs)%2 != 0 {
		panic("store.NewLabels: odd number of strings")
	}
	var ls Labels
	for i := 0; i < len(pairs); i += 2 {
		ls = ls.With(pairs[i], pairs[i+1])
	}
	return ls
}

// Get returns the value of the label name, or "".
func (ls Labels) Get(name string) string {
	if i, ok := ls.find(name); ok {
		return ls[i].Value
	}
	return ""
}

// With returns a copy of ls with the label name set to value.
func (ls Labels) With(name, value string) Labels {
	out := slices.Clone(ls)
	i, ok := out.find(name)
	if ok {
		out[i].Value = value
		return out
	}
	return slices.Insert(out, i, Label{name, value})
}

// Without returns a copy of ls without the label name.
func (ls Labels) Without(name string) Labels {
	out := slices.Clone(ls)
	if i, ok := out.find(name); ok {
		out = slices.Delete(out, i, i+1)
	}
	return out
}

func (ls Labels) find(name string) (int, bool) {
	return slices.BinarySearchFunc(ls, name, func(l Label, name string) int { return strings.Compare(l.Name, name) })
}

// Sort sorts ls by name in place and returns it; of two labels with the
// same name the last is kept.
func (ls Labels) Sort() Labels {
	slices.SortStableFunc(ls, func(a, b Label) int { return strings.Compare(a.Name, b.Name) })
	out := ls[:0]
	for i, l := range ls {
		if i+1 < len(ls) && ls[i+1].Name == l.Name {
			continue
		}
		out = append(out, l)
	}
	return out
}

// Compare orders label sets as Prometheus does: label by label, by name
// then value; a set that is a prefix of another comes first.
func (ls Labels) Compare(other Labels) int {
	for i := range min(len(ls), len(other)) {
		if c := cmp.Or(strings.Compare(ls[i].Name, other[i].Name), strings.Compare(ls[i].Value, other[i].Value)); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(ls), len(other))
}

// String returns ls in Prometheus syntax: {a="x", b="y"}.
func (ls Labels) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(l.Value))
	}
	b.WriteByte('}')
	return b.String()
}

// Check returns an error wrapping ErrLimit unless ls can name a series
// under limits: sorted names, each a valid label name (see ValidLabelName)
// and present once, __name__ and service_name not empty, and the counts
// and lengths within the limits.
func (ls Labels) Check(limits Limits) error {
	limits = limits.WithDefaults()
	if len(ls) > limits.MaxLabels {
		return fmt.Errorf("%d labels, more than the limit of %d per series: %w", len(ls), limits.MaxLabels, ErrLimit)
	}
	for i, l := range ls {
		switch {
		case !ValidLabelName(l.Name):
			return fmt.Errorf("label name %q: not [a-zA-Z_][a-zA-Z0-9_.]*: %w", clip(l.Name), ErrLimit)
		case len(l.Name) > limits.MaxLabelNameLength:
			return fmt.Errorf("label name %q…: %d bytes, over the limit of %d: %w", clip(l.Name), len(l.Name), limits.MaxLabelNameLength, ErrLimit)
		case len(l.Value) > limits.MaxLabelValueLength:
			return fmt.Errorf("label %s: value of %d bytes, over the limit of %d: %w", l.Name, len(l.Value), limits.MaxLabelValueLength, ErrLimit)
		case i > 0 && ls[i-1].Name >= l.Name:
			return fmt.Errorf("labels not sorted, or %s given twice: %w", l.Name, ErrLimit)
		}
	}
	for _, name := range []string{LabelName, LabelService} {
		if ls.Get(name) == "" {
			return fmt.Errorf("label %s missing: every series needs it: %w", name, ErrLimit)
		}
	}
	return nil
}

// ValidLabelName reports whether name can be a label's name:
// [a-zA-Z_][a-zA-Z0-9_.]*, as Pyroscope accepts them.
func ValidLabelName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !nameByte(name[i], i == 0) {
			return false
		}
	}
	return true
}

// clip shortens s for an error message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max]
}
