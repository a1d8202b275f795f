package settings

import (
	"fmt"

	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/report"
)

// A Setting is one report setting, as pprof's internal/driver/config.go
// defines them: the report commands' flags, the shell's options and their
// help, and the web UI's URL parameters are all derived from All.
type Setting struct {
	// Name is pprof's name: the flag (-nodecount), the shell option
	// (nodecount=10) and the JSON key.
	Name string
	// URLParam is the parameter pprof's web UI keeps the setting in ("n"),
	// or "" for settings that are not kept in URLs (source_path).
	URLParam string
	// Help is one line; a word in `backquotes` names the flag's argument.
	Help string
	// Choices are the values of a group such as granularity: each is also
	// a boolean flag (-lines) and a shell shortcut (lines=true), at most
	// one of which may be set.
	Choices []Choice
	// Shortcuts are boolean flags that set the value (-inuse_space sets
	// sample_index=inuse_space).
	Shortcuts []Shortcut

	typ settingType
	get func(o *report.Options) string
	set func(o *report.Options, v string) error
}

// A Choice is one value of a group setting.
type Choice struct {
	Name string
	Help string
}

// A Shortcut is pprof's legacy flag for one value of a setting.
type Shortcut struct {
	Flag  string // e.g. "mean_delay"
	Value string // e.g. "delay"
	Mean  bool   // also sets mean (-mean_delay)
}

type settingType int

const (
	typeString settingType = iota
	typeBool
	typeInt
	typeFloat
)

// settings is the table, in the order help lists them.
var settings = []Setting{
	{Name: "sample_index", URLParam: "si", Help: "sample value to report: a type `name` or an index (default: the last)",
		Shortcuts: []Shortcut{
			{"total_delay", "delay", false}, {"mean_delay", "delay", true}, {"contentions", "contentions", false},
			{"inuse_space", "inuse_space", false}, {"inuse_objects", "inuse_objects", false},
			{"alloc_space", "alloc_space", false}, {"alloc_objects", "alloc_objects", false},
		},
		get: func(o *report.Options) string { return o.SampleIndex },
		set: func(o *report.Options, v string) error { o.SampleIndex = v; return nil }},
	boolSetting("mean", "mean", "report mean values: divide each value by the sample's first value, a count", func(o *report.Options) *bool { return &o.Mean }),
	{Name: "sort", URLParam: "sort", Help: "sort rows by flat or cumulative value (default flat)",
		Choices: []Choice{{"cum", "sort by cumulative value"}, {"flat", "sort by flat value"}},
		get: func(o *report.Options) string {
			if o.Cum {
				return "cum"
			}
			return "flat"
		},
		set: func(o *report.Options, v string) error { o.Cum = v == "cum"; return nil }},
	{Name: "nodecount", URLParam: "n", Help: "show at most `n` nodes (default: all for top, 80 for tree)", typ: typeInt,
		get: func(o *report.Options) string { return strconv.Itoa(o.NodeCount) },
		set: func(o *report.Options, v string) error {
			n, err := strconv.Atoi(v)
			if err == nil {
				o.NodeCount = n
			}
			return err
		}},
	floatSetting("nodefraction", "nf", "hide nodes below `f` x total", func(o *report.Options) *float64 { return &o.NodeFraction }),
	floatSetting("edgefraction", "ef", "hide edges below `f` x total", func(o *report.Options) *float64 { return &o.EdgeFraction }),
	{Name: "trim", URLParam: "trim", Help: "honor nodefraction, edgefraction and nodecount; false shows everything", typ: typeBool,
		get: func(o *report.Options) string { return strconv.FormatBool(!o.NoTrim) },
		set: func(o *report.Options, v string) error {
			b, err := parseBool(v)
			if err == nil {
				o.NoTrim = !b
			}
			return err
		}},
	stringSetting("focus", "f", "keep samples through a frame matching `regexp` (function, file or object name)", func(o *report.Options) *string { return &o.Focus }),
	stringSetting("ignore", "i", "drop samples through a frame matching `regexp`", func(o *report.Options) *string { return &o.Ignore }),
	stringSetting("hide", "h", "drop frames matching `regexp`, keeping their samples", func(o *report.Options) *string { return &o.Hide }),
	stringSetting("show", "s", "keep only frames matching `regexp`", func(o *report.Options) *string { return &o.Show }),
	stringSetting("show_from", "sf", "drop frames above the highest one matching `regexp`", func(o *report.Options) *string { return &o.ShowFrom }),
	stringSetting("tagfocus", "tf", "keep samples with labels matching `filter`: regexp, key=regexp or a range such as 1kb:64kb", func(o *report.Options) *string { return &o.TagFocus }),
	stringSetting("tagignore", "ti", "drop samples with labels matching `filter`", func(o *report.Options) *string { return &o.TagIgnore }),
	stringSetting("tagshow", "ts", "keep only labels whose key matches `regexp`", func(o *report.Options) *string { return &o.TagShow }),
	stringSetting("taghide", "th", "drop labels whose key matches `regexp`", func(o *report.Options) *string { return &o.TagHide }),
	stringSetting("tagroot", "tagroot", "add frames for the values of the label `keys` (comma-separated) at the root: group by label", func(o *report.Options) *string { return &o.TagRoot }),
	stringSetting("tagleaf", "tagleaf", "add frames for the values of the label `keys` (comma-separated) at the leaf", func(o *report.Options) *string { return &o.TagLeaf }),
	{Name: "granularity", URLParam: "g", Help: "aggregate at the level of functions (default; list uses lines), functions per file, files, lines or addresses",
		Choices: granularityChoices(),
		get:     func(o *report.Options) string { return o.Granularity },
		set:     func(o *report.Options, v string) error { o.Granularity = v; return nil }},
	boolSetting("noinlines", "noinlines", "attribute inlined frames to their callers", func(o *report.Options) *bool { return &o.NoInlines }),
	stringSetting("unit", "unit", "output `unit` (ns, ms, s, B, kB, MB...), minimum or auto (each value in its own unit)", func(o *report.Options) *string { return &o.Unit }),
	floatSetting("divide_by", "", "divide all values by `x`", func(o *report.Options) *float64 { return &o.DivideBy }),
	boolSetting("relative_percentages", "rel", "percentages of the filtered total rather than the whole", func(o *report.Options) *bool { return &o.RelativePercentages }),
	boolSetting("compact_labels", "compact", "show minimal headers", func(o *report.Options) *bool { return &o.CompactLabels }),
	stringSetting("source_path", "", "search `path` for source files (list)", func(o *report.Options) *string { return &o.SourcePath }),
	stringSetting("trim_path", "", "`prefix` to trim from source paths before the search (list)", func(o *report.Options) *string { return &o.TrimPath }),
}

// granularityChoices are report.Granularities, as a group's choices.
func granularityChoices() []Choice {
	var cs []Choice
	for _, g := range report.Granularities() {
		cs = append(cs, Choice{g.Name, g.Help})
	}
	return cs
}

func stringSetting(name, param, help string, f func(*report.Options) *string) Setting {
	return Setting{Name: name, URLParam: param, Help: help, typ: typeString,
		get: func(o *report.Options) string { return *f(o) },
		set: func(o *report.Options, v string) error { *f(o) = v; return nil }}
}

func boolSetting(name, param, help string, f func(*report.Options) *bool) Setting {
	return Setting{Name: name, URLParam: param, Help: help, typ: typeBool,
		get: func(o *report.Options) string { return strconv.FormatBool(*f(o)) },
		set: func(o *report.Options, v string) error {
			b, err := parseBool(v)
			if err == nil {
				*f(o) = b
			}
			return err
		}}
}

func floatSetting(name, param, help string, f func(*report.Options) *float64) Setting {
	return Setting{Name: name, URLParam: param, Help: help, typ: typeFloat,
		get: func(o *report.Options) string { return fmt.Sprint(*f(o)) },
		set: func(o *report.Options, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil {
				*f(o) = x
			}
			return err
		}}
}

// All returns the table of report settings, in the order help lists
// them. The result is a copy: changing it changes no flag or option.
func All() []Setting {
	out := slices.Clone(settings)
	for i := range out {
		out[i].Choices = slices.Clone(out[i].Choices)
		out[i].Shortcuts = slices.Clone(out[i].Shortcuts)
	}
	return out
}

// Lookup returns the setting called name, or the group one of whose
// choices is called name (then s.Name != name).
func Lookup(name string) (s Setting, ok bool) {
	for _, s := range settings {
		if s.Name == name || slices.ContainsFunc(s.Choices, func(c Choice) bool { return c.Name == name }) {
			return s, true
		}
	}
	return Setting{}, false
}

// IsBool reports whether the setting is a boolean, which a flag or a shell
// assignment may set without a value.
func (s Setting) IsBool() bool { return s.typ == typeBool }

// ChoiceNames returns the names of the setting's choices, if it is a group.
func (s Setting) ChoiceNames() []string {
	var names []string
	for _, c := range s.Choices {
		names = append(names, c.Name)
	}
	return names
}

// Arg returns the name of the flag's argument, the word of Help in
// backquotes ("regexp"), or "" for booleans and groups.
func (s Setting) Arg() string {
	_, arg, _ := strings.Cut(s.Help, "`")
	arg, _, _ = strings.Cut(arg, "`")
	return arg
}

// Description returns Help without the backquotes.
func (s Setting) Description() string { return strings.ReplaceAll(s.Help, "`", "") }

// Get returns the setting's value in o, as a string Set accepts.
func (s Setting) Get(o *report.Options) string { return s.get(o) }

// Default returns the setting's value in DefaultOptions.
func (s Setting) Default() string {
	o := report.DefaultOptions()
	return s.get(&o)
}

// Set parses v and sets the setting in o. A group accepts only the names
// of its choices.
func (s Setting) Set(o *report.Options, v string) error {
	if s.Choices != nil && !slices.Contains(s.ChoiceNames(), v) {
		return fmt.Errorf("invalid %q value %q", s.Name, v)
	}
	return s.set(o, v)
}

// Set sets the setting called name in o, as pprof's shell does: name is
// a setting, or the choice of a group given the value true ("cum=true").
func Set(o *report.Options, name, value string) error {
	s, ok := Lookup(name)
	switch {
	case !ok:
		return fmt.Errorf("unknown config field %q", name)
	case s.Name == name:
		return s.Set(o, value)
	}
	if b, err := strconv.ParseBool(value); err != nil || !b {
		return fmt.Errorf("unknown config field %q", name)
	}
	return s.Set(o, name)
}

// parseBool accepts pprof's spellings of a boolean; "" means true.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "t", "yes", "y", "1", "":
		return true, nil
	case "false", "f", "no", "n", "0":
		return false, nil
	}
	return false, fmt.Errorf("illegal value %q for bool variable", s)
}

// ApplyURL sets in o the settings whose URL parameters q holds, as pprof's web
// UI reads its URLs; a parameter that is absent or empty leaves the
// setting as it is.
func ApplyURL(o *report.Options, q url.Values) error {
	for _, s := range settings {
		if v := q.Get(s.URLParam); s.URLParam != "" && v != "" {
			if err := s.Set(o, v); err != nil {
				return fmt.Errorf("URL parameter %s (%s): %w", s.URLParam, s.Name, err)
			}
		}
	}
	return nil
}

// EncodeURL records o in q under the settings' URL parameters, as pprof's
// web UI writes its URLs: settings at their default are removed and
// booleans are written "t" or "f".
func EncodeURL(o *report.Options, q url.Values) {
	for _, s := range settings {
		if s.URLParam == "" {
			continue
		}
		v := s.Get(o)
		switch {
		case v == s.Default():
			q.Del(s.URLParam)
		case s.IsBool():
			q.Set(s.URLParam, v[:1])
		default:
			q.Set(s.URLParam, v)
		}
	}
}
