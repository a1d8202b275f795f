package querier

import (
	"context"
	"slices"

	"github.com/perflab/perflab/store"
)

// LabelProfileType is the label Pyroscope gives every series besides its
// own: the ID of its profile type, one series for each type. perflab's
// store keeps types apart from labels, so the querier makes the label up:
// matchers on it select profile types, Series lists one series for each
// type with the label, and LabelNames and LabelValues list it. Grafana's
// profiles apps select services and types with it.
const LabelProfileType = "__profile_type__"

// splitTypeMatchers returns sel without its matchers on LabelProfileType,
// and those matchers.
func splitTypeMatchers(sel store.Selector) (rest, types store.Selector) {
	for _, m := range sel {
		if m.Name == LabelProfileType {
			types = append(types, m)
		} else {
			rest = append(rest, m)
		}
	}
	return rest, types
}

// typeMatches reports whether t's ID satisfies every matcher of types.
func typeMatches(t store.ProfileType, types store.Selector) bool {
	return types.Matches(store.Labels{{Name: LabelProfileType, Value: t.ID()}})
}

// typedSelections returns the selections of sel, one for each profile
// type of the profiles it picks whose ID satisfies its matchers on
// LabelProfileType, with those matchers taken out.
func (s *Service) typedSelections(ctx context.Context, sel store.Selection) ([]store.Selection, error) {
	rest, types := splitTypeMatchers(sel.Selector)
	sel.Selector = rest
	all, err := s.reader.ProfileTypes(ctx, sel)
	if err != nil {
		return nil, err
	}
	var out []store.Selection
	for _, t := range all {
		if typeMatches(t, types) {
			typed := sel
			typed.Type = t
			out = append(out, typed)
		}
	}
	return out, nil
}

// hasTypeMatchers reports whether any of sels has matchers on
// LabelProfileType.
func hasTypeMatchers(sels []store.Selection) bool {
	for _, sel := range sels {
		if slices.ContainsFunc(sel.Selector, func(m *store.Matcher) bool { return m.Name == LabelProfileType }) {
			return true
		}
	}
	return false
}
