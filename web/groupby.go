package web

import (
	"slices"
	"strings"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// groupBy is the menu's "group by label" select, setting st (tagroot): no
// grouping, then each label key of the profile, and the current value if
// it is none of them (several keys, as "kind,worker").
func (s *Server) groupBy(st settings.Setting, o report.Options) *choiceField {
	cur := st.Get(&o)
	c := &choiceField{Param: st.URLParam, Name: st.Name, Help: st.Description()}
	c.Options = append(c.Options, option{"", "none", cur == ""})
	keys := s.labelKeys()
	for _, k := range keys {
		c.Options = append(c.Options, option{k, k, k == cur})
	}
	if cur != "" && !slices.Contains(keys, cur) {
		c.Options = append(c.Options, option{cur, cur, true})
	}
	return c
}

// labelKeys returns the keys of the label hints, sorted.
func (s *Server) labelKeys() []string {
	var keys []string
	for _, l := range s.labels() {
		k, _, _ := strings.Cut(l, "=")
		if len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
