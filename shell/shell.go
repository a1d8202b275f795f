package shell

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/report"
)

// A Shell runs pprof's interactive commands on one profile.
type Shell struct {
	p      *profile.Profile
	o      report.Options
	Stdout io.Writer // reports
	Stderr io.Writer // the greeting, errors, help and option listings

	// Disasm says where disasm finds binaries (by default as pprof:
	// the profile's mapping files, then $PPROF_BINARY_PATH).
	Disasm report.DisasmOptions
	// SourceView, if set, opens the web source view of the functions
	// matching a regexp and returns its URL: the weblist command. Without
	// it, weblist says the view is not available.
	SourceView func(regexp string) (url string, err error)
	// GraphView, if set, opens the web viewer's call graph with the
	// options o (focus, ignore, node count ...) and returns its URL: the
	// web command. Without it, web says the view is not available.
	GraphView func(o report.Options) (url string, err error)
}

// New returns a shell on p starting from options o (usually
// report.DefaultOptions, or the command line's flags) with compact
// headers, as pprof's shell; top shows 10 rows unless o sets a node count.
func New(p *profile.Profile, o report.Options, stdout, stderr io.Writer) *Shell {
	o.CompactLabels = true
	return &Shell{p: p, o: o, Stdout: stdout, Stderr: stderr}
}

// Run greets, then reads commands from in until "quit" or the end of
// input. When in and Stderr are a terminal, lines are edited there, with
// history and completion.
func (s *Shell) Run(in io.Reader) error {
	s.greet()
	if t := openTerminal(in, s.Stderr); t != nil {
		t.t.AutoCompleteCallback = s.autoComplete
		return s.loop(t.readLine)
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	return s.loop(func() (string, error) {
		fmt.Fprint(s.Stdout, "(pprof) ")
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return "", err
			}
			return "", io.EOF
		}
		return sc.Text(), nil
	})
}

// loop runs the lines read until quit or io.EOF.
func (s *Shell) loop(readLine func() (string, error)) error {
	for {
		line, err := readLine()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading commands: %w", err)
		}
		if s.Exec(line) {
			return nil
		}
	}
}

// greet prints the profile's description, as pprof does on entering its shell.
func (s *Shell) greet() {
	if labels, total, err := report.Describe(s.p); err == nil {
		fmt.Fprintln(s.Stderr, strings.Join(labels, "\n"))
		if total == 0 && len(s.p.SampleType) > 1 {
			fmt.Fprintln(s.Stderr, "No samples were found with the default sample value type.")
			fmt.Fprintln(s.Stderr, `Try "sample_index" command to analyze different sample values.`)
			fmt.Fprintln(s.Stderr)
		}
	}
	fmt.Fprintln(s.Stderr, `Entering interactive mode (type "help" for commands, "o" for options)`)
}

// Exec runs one input line and reports whether it asked to quit.
func (s *Shell) Exec(line string) (quit bool) {
	for _, in := range s.expand(strings.TrimSpace(line)) {
		name, value, hasValue := strings.Cut(in, "=")
		if name = strings.TrimSpace(name); isOption(name) {
			if i := strings.LastIndex(value, "//:"); i != -1 {
				value = value[:i]
			}
			if err := s.set(name, strings.TrimSpace(value), hasValue); err != nil {
				fmt.Fprintln(s.Stderr, err)
			}
			continue
		}
		tokens := strings.Fields(in)
		if len(tokens) == 0 {
			continue
		}
		switch tokens[0] {
		case "o", "options":
			s.printOptions()
			continue
		case "exit", "quit", "q":
			return true
		case "help":
			s.help(strings.Join(tokens[1:], " "))
			continue
		}
		if err := s.report(tokens); err != nil {
			fmt.Fprintln(s.Stderr, err)
		}
	}
	return false
}

// expand turns the shortcuts ":" (clear the filters) and sample type names
// (select that sample value) into option assignments.
func (s *Shell) expand(in string) []string {
	if in == ":" {
		return []string{"focus=", "ignore=", "hide=", "tagfocus=", "tagignore="}
	}
	for _, st := range s.p.SampleType {
		switch in {
		case st.Type:
			return []string{"sample_index=" + st.Type}
		case "total_" + st.Type:
			return []string{"mean=0", "sample_index=" + st.Type}
		case "mean_" + st.Type:
			return []string{"mean=1", "sample_index=" + st.Type}
		}
	}
	return []string{in}
}

var tailDigits = regexp.MustCompile("[0-9]+$")

// reports maps the shell's report commands to reports; text is pprof's
// other name for top.
var reports = map[string]report.Kind{
	"top": report.Top, "text": report.Top, "peek": report.Peek, "tree": report.Tree, "list": report.List,
	"traces": report.Traces, "tags": report.Tags, "raw": report.Raw, "dot": report.Dot, "disasm": report.Disasm,
}

// splitCommand separates a report command from its node count: "top10"
// is top with 10.
func splitCommand(name string) (cmd, count string) {
	if _, ok := reports[name]; ok {
		return name, ""
	}
	if d := tailDigits.FindString(name); d != "" && d != name {
		return name[:len(name)-len(d)], d
	}
	return name, ""
}

// report runs a report command line such as "top5 -cum main >out.txt".
func (s *Shell) report(tokens []string) error {
	name, count := splitCommand(tokens[0])
	args := tokens[1:]
	if count != "" {
		args = append([]string{count}, args...)
	}
	k, ok := reports[name]
	switch {
	case ok, name == "weblist", name == "web", name == "svg":
	case noGraphviz[name]:
		return fmt.Errorf("%s: perflab draws graphs as SVG, without Graphviz: use svg, or web", name)
	case pprofOnly[name]:
		return fmt.Errorf("%s: not supported by perflab's shell (see docs/compat.md)", name)
	case isOption(name):
		value := "<val>"
		if len(args) > 0 {
			value = args[0]
		}
		return fmt.Errorf("did you mean: %s=%s", name, value)
	default:
		return fmt.Errorf("unrecognized command: %q", name)
	}
	if name == "weblist" {
		return s.weblist(args)
	}
	if name == "web" || name == "svg" {
		return s.graph(name, args)
	}
	o := s.o
	if k == report.Peek || k == report.List || k == report.Disasm {
		if len(args) == 0 {
			return fmt.Errorf("command %s requires an argument", name)
		}
		o.Symbol, args = args[0], args[1:]
	}
	out, err := parseReportArgs(&o, k, name, args)
	if err != nil {
		return err
	}
	return s.generate(k, o, out)
}

// parseReportArgs applies a report command's arguments: a node count,
// -cum, focus regexps, -ignore regexps and ">file".
func parseReportArgs(o *report.Options, k report.Kind, name string, args []string) (out string, err error) {
	var focus, ignore string
	for i := 0; i < len(args); i++ {
		t := args[i]
		if n, err := strconv.ParseInt(t, 10, 32); err == nil {
			o.NodeCount = int(n)
			continue
		}
		switch t[0] {
		case '>':
			out = t[1:]
			if out == "" {
				if i++; i >= len(args) {
					return "", fmt.Errorf("unexpected end of line after >")
				}
				out = args[i]
			}
		case '-':
			if t == "-cum" || t == "--cum" {
				o.Cum = true
				continue
			}
			ignore = joinRegexps(ignore, t[1:])
		default:
			focus = joinRegexps(focus, t)
		}
	}
	if k == report.Tags {
		o.TagFocus, o.TagIgnore = cmp.Or(focus, o.TagFocus), cmp.Or(ignore, o.TagIgnore)
	} else {
		o.Focus, o.Ignore = cmp.Or(focus, o.Focus), cmp.Or(ignore, o.Ignore)
	}
	if o.NodeCount == -1 && (name == "top" || name == "text") {
		o.NodeCount = 10
	}
	return out, nil
}

func joinRegexps(a, b string) string {
	if a != "" && b != "" {
		return a + "|" + b
	}
	return a + b
}

// generate runs one report on a copy of the profile when the report would
// change it (filters, raw), writing to stdout or to the file out. A file
// is written only once the report is complete, as pprof does: a failing
// report leaves an existing file as it was.
func (s *Shell) generate(k report.Kind, o report.Options, out string) error {
	p := s.p
	if k == report.Raw || k == report.Disasm || len(o.ActiveFilters()) > 0 {
		p = p.Copy()
	}
	o.Warnings = s.Stderr
	gen := func(w io.Writer) error { return report.Generate(w, p, k, o) }
	if k == report.Disasm {
		gen = func(w io.Writer) error { return report.GenerateDisasm(w, p, o, s.Disasm) }
	}
	if out == "" {
		return gen(s.Stdout)
	}
	var buf bytes.Buffer
	if err := gen(&buf); err != nil {
		return err
	}
	fmt.Fprintln(s.Stderr, "Generating report in", out)
	return atomicfile.Write(out, func(w io.Writer) error {
		_, err := buf.WriteTo(w)
		return err
	})
}

// weblist opens the web source view of the functions matching its
// argument, as pprof's weblist does, and prints its URL.
func (s *Shell) weblist(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("command weblist requires one argument")
	}
	if s.SourceView == nil {
		return fmt.Errorf("weblist: the web source view is not available in this build yet; use list or disasm")
	}
	url, err := s.SourceView(args[0])
	if err != nil {
		return fmt.Errorf("weblist: %w", err)
	}
	fmt.Fprintln(s.Stdout, url)
	return nil
}
