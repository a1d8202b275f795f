package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A shellOption is one setting the shell's "name=value" lines change.
type shellOption struct {
	name    string
	help    string
	isBool  bool
	choices []string // for option groups such as granularity
	get     func(o *Options) string
	set     func(o *Options, v string) error
}

func stringOpt(name, help string, f func(*Options) *string) shellOption {
	return shellOption{name: name, help: help,
		get: func(o *Options) string { return *f(o) },
		set: func(o *Options, v string) error { *f(o) = v; return nil }}
}

func boolOpt(name, help string, f func(*Options) *bool) shellOption {
	return shellOption{name: name, help: help, isBool: true,
		get: func(o *Options) string { return strconv.FormatBool(*f(o)) },
		set: func(o *Options, v string) error {
			b, err := parseBool(v)
			*f(o) = b
			return err
		}}
}

func floatOpt(name, help string, f func(*Options) *float64) shellOption {
	return shellOption{name: name, help: help,
		get: func(o *Options) string { return fmt.Sprint(*f(o)) },
		set: func(o *Options, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil {
				*f(o) = x
			}
			return err
		}}
}

// shellOptions are the settings perflab's shell supports, by name.
var shellOptions = []shellOption{
	stringOpt("focus", "Restricts to samples going through a node matching regexp", func(o *Options) *string { return &o.Focus }),
	stringOpt("ignore", "Skips paths going through any nodes matching regexp", func(o *Options) *string { return &o.Ignore }),
	stringOpt("hide", "Skips nodes matching regexp", func(o *Options) *string { return &o.Hide }),
	stringOpt("show", "Only show nodes matching regexp", func(o *Options) *string { return &o.Show }),
	stringOpt("show_from", "Drops functions above the highest matched frame", func(o *Options) *string { return &o.ShowFrom }),
	stringOpt("tagfocus", "Restricts to samples with tags in range or matched by regexp", func(o *Options) *string { return &o.TagFocus }),
	stringOpt("tagignore", "Discard samples with tags in range or matched by regexp", func(o *Options) *string { return &o.TagIgnore }),
	stringOpt("unit", "Measurement units to display", func(o *Options) *string { return &o.Unit }),
	stringOpt("source_path", "Search path for source files", func(o *Options) *string { return &o.SourcePath }),
	stringOpt("trim_path", "Path to trim from source paths before search", func(o *Options) *string { return &o.TrimPath }),
	boolOpt("relative_percentages", "Show percentages relative to focused subgraph", func(o *Options) *bool { return &o.RelativePercentages }),
	boolOpt("compact_labels", "Show minimal headers", func(o *Options) *bool { return &o.CompactLabels }),
	boolOpt("mean", "Average sample value over first value (count)", func(o *Options) *bool { return &o.Mean }),
	boolOpt("noinlines", "Ignore inlines.", func(o *Options) *bool { return &o.NoInlines }),
	floatOpt("nodefraction", "Hide nodes below <f>*total", func(o *Options) *float64 { return &o.NodeFraction }),
	floatOpt("edgefraction", "Hide edges below <f>*total", func(o *Options) *float64 { return &o.EdgeFraction }),
	floatOpt("divide_by", "Ratio to divide all samples before visualization", func(o *Options) *float64 { return &o.DivideBy }),
	{name: "nodecount", help: "Max number of nodes to show",
		get: func(o *Options) string { return strconv.Itoa(o.NodeCount) },
		set: func(o *Options, v string) error {
			n, err := strconv.Atoi(v)
			if err == nil {
				o.NodeCount = n
			}
			return err
		}},
	{name: "trim", help: "Honor nodefraction/edgefraction/nodecount defaults", isBool: true,
		get: func(o *Options) string { return strconv.FormatBool(!o.NoTrim) },
		set: func(o *Options, v string) error {
			b, err := parseBool(v)
			o.NoTrim = !b
			return err
		}},
	{name: "sample_index", help: "Sample value to report (0-based index or name)",
		get: func(o *Options) string { return o.SampleIndex },
		set: func(o *Options, v string) error { o.SampleIndex = v; return nil }},
	{name: "sort", help: "Sort order", choices: []string{"cum", "flat"},
		get: func(o *Options) string {
			if o.Cum {
				return "cum"
			}
			return "flat"
		},
		set: func(o *Options, v string) error { o.Cum = v == "cum"; return nil }},
	{name: "granularity", help: "Granularity", choices: granularities,
		get: func(o *Options) string { return o.Granularity },
		set: func(o *Options, v string) error { o.Granularity = v; return nil }},
}

// pprofOnly names pprof options and commands perflab's shell does not
// offer (graphs, disassembly, web pages): docs/compat.md lists them.
var pprofOnly = map[string]bool{
	"call_tree": true, "intel_syntax": true, "tagroot": true, "tagleaf": true, "drop_negative": true,
	"prune_from": true, "tagshow": true, "taghide": true, "showcolumns": true, "output": true,
	"normalize": true, "dot": true, "web": true, "disasm": true, "weblist": true, "svg": true,
	"png": true, "pdf": true, "gif": true, "ps": true, "eog": true, "evince": true, "gv": true,
	"callgrind": true, "kcachegrind": true, "proto": true, "topproto": true, "comments": true,
}

// findOption returns the option called name, or whose choice name is.
func findOption(name string) (opt *shellOption, isChoice bool) {
	for i := range shellOptions {
		o := &shellOptions[i]
		if o.name == name {
			return o, false
		}
		if slices.Contains(o.choices, name) {
			return o, true
		}
	}
	return nil, false
}

func isOption(name string) bool {
	o, _ := findOption(name)
	return o != nil
}

// set assigns an option: "name=value", or a choice ("cum=true").
func (s *Shell) set(name, value string, hasValue bool) error {
	opt, isChoice := findOption(name)
	switch {
	case isChoice:
		// As in pprof, a choice must be set explicitly: "cum=true".
		if b, err := strconv.ParseBool(value); err != nil || !b {
			return fmt.Errorf("unknown config field %q", name)
		}
		return opt.set(&s.o, name)
	case !hasValue && !opt.isBool:
		return fmt.Errorf("please specify a value, e.g. %s=<val>", name)
	case opt.choices != nil && !slices.Contains(opt.choices, value):
		return fmt.Errorf("invalid %q value %q", name, value)
	case name == "sample_index":
		i, err := s.p.SampleIndexByName(value)
		if err != nil {
			return err
		}
		value = s.p.SampleType[i].Type
	}
	return opt.set(&s.o, value)
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

// printOptions lists the options and their current values.
func (s *Shell) printOptions() {
	var lines []string
	for _, opt := range shellOptions {
		v, comment := opt.get(&s.o), ""
		switch {
		case opt.choices != nil:
			comment = "//: [" + strings.Join(opt.choices, " | ") + "]"
			if v == "" {
				v = "(default)"
			}
		case opt.name == "sample_index":
			var types []string
			for _, st := range s.p.SampleType {
				types = append(types, st.Type)
			}
			if v == "" {
				v = types[len(types)-1]
			}
			comment = "//: [" + strings.Join(types, " | ") + "]"
		case opt.name == "nodecount" && v == "-1":
			comment = "//: default"
		case v == "":
			v = `""`
		}
		lines = append(lines, fmt.Sprintf("  %-25s = %-20s %s", opt.name, v, comment))
	}
	sort.Strings(lines)
	fmt.Fprintln(s.Stderr, strings.Join(lines, "\n"))
}

// shellCommandHelp describes the report commands.
var shellCommandHelp = map[string]string{
	"top":    "top [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs top entries in text form",
	"text":   "text [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs top entries in text form",
	"tree":   "tree [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs a text rendering of call graph",
	"peek":   "peek func_regex\nDisplay callers and callees of functions matching func_regex.",
	"list":   "list<func_regex> [-focus_regex]* [-ignore_regex]* >f\nOutput annotated source for functions matching regexp",
	"traces": "traces\nOutputs all profile samples in text form",
	"tags":   "tags [tag_regex]* [-ignore_regex]* [>file]\nList tags with key:value matching tag_regex and exclude ignore_regex.",
	"raw":    "raw\nOutputs a text representation of the raw profile",
}

// help prints the command list, or the help of one command or option.
func (s *Shell) help(topic string) {
	if topic == "" {
		var cmds []string
		for name, h := range shellCommandHelp {
			desc := h[strings.Index(h, "\n")+1:]
			cmds = append(cmds, fmt.Sprintf("    %-16s %s", name, strings.SplitN(desc, "\n", 2)[0]))
		}
		sort.Strings(cmds)
		cmds = append(cmds, fmt.Sprintf("    %-16s %s", "o/options", "List options and their current values"),
			fmt.Sprintf("    %-16s %s", "q/quit/exit/^D", "Exit pprof"))
		var opts []string
		for _, o := range shellOptions {
			opts = append(opts, fmt.Sprintf("    %-16s %s", o.name, o.help))
		}
		sort.Strings(opts)
		fmt.Fprintf(s.Stderr, "  Commands:\n%s\n\n  Options:\n%s\n\n  :   Clear focus/ignore/hide/tagfocus/tagignore\n\n  type \"help <cmd|option>\" for more information\n",
			strings.Join(cmds, "\n"), strings.Join(opts, "\n"))
		return
	}
	if h, ok := shellCommandHelp[topic]; ok {
		usage, desc, _ := strings.Cut(h, "\n")
		fmt.Fprintf(s.Stderr, "%s\n  Usage:\n    %s\n\n", desc, usage)
		return
	}
	if o, _ := findOption(topic); o != nil {
		fmt.Fprintln(s.Stderr, o.help)
		return
	}
	fmt.Fprintln(s.Stderr, "Unknown command: "+topic)
}
