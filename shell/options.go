package shell

import (
	"fmt"
	"sort"
	"strings"

	"github.com/perflab/perflab/settings"
)

// pprofOnly names pprof options and commands perflab's shell does not
// offer (graphs, web pages): docs/compat.md lists them.
var pprofOnly = map[string]bool{
	"call_tree": true, "intel_syntax": true, "drop_negative": true,
	"prune_from": true, "showcolumns": true, "output": true,
	"normalize": true,
	"callgrind": true, "kcachegrind": true, "proto": true, "topproto": true, "comments": true,
}

// noGraphviz names pprof's commands that have Graphviz draw the graph in
// another format than SVG: perflab draws SVG itself, and says so.
var noGraphviz = map[string]bool{
	"png": true, "pdf": true, "gif": true, "ps": true, "eog": true, "evince": true, "gv": true,
}

// isOption reports whether name is a setting or the choice of a group.
func isOption(name string) bool {
	_, ok := settings.Lookup(name)
	return ok
}

// set assigns an option, "name=value", or a choice ("cum=true"), with
// pprof's checks and messages.
func (s *Shell) set(name, value string, hasValue bool) error {
	st, _ := settings.Lookup(name)
	switch {
	case !hasValue && !st.IsBool() && st.Name == name:
		return fmt.Errorf("please specify a value, e.g. %s=<val>", name)
	case name == "sample_index":
		i, err := s.p.SampleIndexByName(value)
		if err != nil {
			return err
		}
		value = s.p.SampleType[i].Type
	}
	return settings.Set(&s.o, name, value)
}

// printOptions lists the options and their current values.
func (s *Shell) printOptions() {
	var lines []string
	for _, st := range settings.All() {
		v, comment := st.Get(&s.o), ""
		switch {
		case st.Choices != nil:
			comment = "//: [" + strings.Join(st.ChoiceNames(), " | ") + "]"
			if v == "" {
				v = "(default)"
			}
		case st.Name == "sample_index":
			var types []string
			for _, t := range s.p.SampleType {
				types = append(types, t.Type)
			}
			if v == "" && len(types) > 0 {
				v = types[len(types)-1]
			}
			comment = "//: [" + strings.Join(types, " | ") + "]"
		case st.Name == "nodecount" && v == "-1":
			comment = "//: default"
		case v == "":
			v = `""`
		}
		lines = append(lines, fmt.Sprintf("  %-25s = %-20s %s", st.Name, v, comment))
	}
	sort.Strings(lines)
	fmt.Fprintln(s.Stderr, strings.Join(lines, "\n"))
}

// commandHelp describes the commands: the first line is the usage.
var commandHelp = map[string]string{
	"top":     "top [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs top entries in text form",
	"text":    "text [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs top entries in text form",
	"tree":    "tree [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs a text rendering of call graph",
	"peek":    "peek func_regex\nDisplay callers and callees of functions matching func_regex.",
	"list":    "list<func_regex> [-focus_regex]* [-ignore_regex]* >f\nOutput annotated source for functions matching regexp",
	"traces":  "traces\nOutputs all profile samples in text form",
	"tags":    "tags [tag_regex]* [-ignore_regex]* [>file]\nList tags with key:value matching tag_regex and exclude ignore_regex.",
	"raw":     "raw\nOutputs a text representation of the raw profile",
	"dot":     "dot [n] [focus_regex]* [-ignore_regex]* [-cum] >f\nOutputs a graph in DOT format",
	"disasm":  "disasm<func_regex|address> [-focus_regex]* [-ignore_regex]* >f\nOutput assembly listings annotated with samples",
	"weblist": "weblist<func_regex|address> [-focus_regex]* [-ignore_regex]*\nDisplay annotated source in a web browser",
	"web":     "web [n] [focus_regex]* [-ignore_regex]*\nVisualize graph through web browser",
	"svg":     "svg [n] [focus_regex]* [-ignore_regex]* >f\nOutputs a graph in SVG format",
}

// help prints the command list, or the help of one command or option.
func (s *Shell) help(topic string) {
	if topic == "" {
		fmt.Fprint(s.Stderr, helpText())
		return
	}
	if h, ok := commandHelp[topic]; ok {
		usage, desc, _ := strings.Cut(h, "\n")
		fmt.Fprintf(s.Stderr, "%s\n  Usage:\n    %s\n\n", desc, usage)
		return
	}
	if st, ok := settings.Lookup(topic); ok {
		desc := st.Description()
		for _, c := range st.Choices {
			if c.Name == topic {
				desc = c.Help + " (" + st.Name + "=" + topic + ")"
			}
		}
		fmt.Fprintln(s.Stderr, desc)
		return
	}
	fmt.Fprintln(s.Stderr, "Unknown command: "+topic)
}

// helpText is the shell's "help": its commands, then the settings of
// settings.All, then the option groups.
func helpText() string {
	var b strings.Builder
	line := func(name, desc string) { fmt.Fprintf(&b, "    %-20s %s\n", name, desc) }
	b.WriteString("  Commands:\n")
	var cmds []string
	for name := range commandHelp {
		cmds = append(cmds, name)
	}
	sort.Strings(cmds)
	for _, name := range cmds {
		_, desc, _ := strings.Cut(commandHelp[name], "\n")
		line(name, desc)
	}
	line("o/options", "List options and their current values")
	line("q/quit/exit/^D", "Exit pprof")
	b.WriteString("\n  Options (name=value):\n")
	var groups []settings.Setting
	for _, st := range settings.All() {
		if st.Choices != nil {
			groups = append(groups, st)
			continue
		}
		line(st.Name, st.Description())
	}
	b.WriteString("\n  Option groups (name=value, or choice=true; only one per group):\n")
	for _, st := range groups {
		line(st.Name, st.Description())
		for _, c := range st.Choices {
			line("  "+c.Name, c.Help)
		}
	}
	b.WriteString("\n  :   Clear focus/ignore/hide/tagfocus/tagignore\n")
	b.WriteString("  A sample type name (e.g. alloc_space) selects it; mean_NAME and total_NAME set mean.\n")
	b.WriteString("\n  type \"help <cmd|option>\" for more information\n")
	return b.String()
}
