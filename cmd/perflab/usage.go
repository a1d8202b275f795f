package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// usage is the command's help text, derived as pprof's is from its table:
// the synopsis, what the command does, every flag fs defines (name,
// argument, help and default, as the flag carries them) and the examples.
func (c *command) usage(fs *flag.FlagSet) string {
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(c.synopsis), "\n") {
		if i == 0 {
			b.WriteString("usage: " + line + "\n")
		} else {
			b.WriteString("       " + line + "\n")
		}
	}
	if c.doc != "" {
		b.WriteString("\n" + strings.TrimSpace(c.doc) + "\n")
	}
	if flags := flagHelp(fs); flags != "" {
		b.WriteString("\nFlags:\n" + flags)
	}
	if c.examples != "" {
		b.WriteString("\nExamples:\n")
		for _, line := range strings.Split(strings.Trim(c.examples, "\n"), "\n") {
			b.WriteString("  " + strings.TrimRight(line, " ") + "\n")
		}
	}
	return b.String()
}

// flagHelp lists fs's flags in order of name, each with its argument
// (the word of its help in backquotes, as flag.PrintDefaults reads it),
// its help and its default when that says something.
func flagHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		arg, help := flag.UnquoteUsage(f)
		name := "-" + f.Name
		if arg != "" {
			name += " " + arg
		}
		switch f.DefValue {
		case "", "0", "0s", "false", "-1", "[]":
		default:
			if !strings.Contains(help, "(default") {
				help += fmt.Sprintf(" (default %s)", f.DefValue)
			}
		}
		writeFlagHelp(&b, name, help)
	})
	return b.String()
}

// writeFlagHelp writes one flag's entry: the name in a column of 23, the
// help beside it (or on the next line if the name is longer) wrapped at 78.
func writeFlagHelp(b *strings.Builder, name, help string) {
	const indent = "                         "
	line := fmt.Sprintf("  %-22s ", name)
	if len(line) > len(indent) {
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		line = indent
	}
	for i, w := range strings.Fields(help) {
		if i > 0 && len(line)+1+len(w) > 78 {
			b.WriteString(line + "\n")
			line = indent
		} else if i > 0 {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
}

// find returns the command or subcommand called name ("bench compare"),
// or c itself.
func (c *command) find(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
	}
	return c
}

// A helpRequest is -h on a command line: the command's usage, derived
// from the flags fs defines, goes to standard output (exit status 0).
type helpRequest struct{ fs *flag.FlagSet }

func (*helpRequest) Error() string { return "help requested" }

// newFlagSet returns a FlagSet for the command (or subcommand) called
// name that reports errors instead of printing them, so that parseFlags
// can turn them into usage errors.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs. -h returns a *helpRequest, which
// dispatch answers with the command's usage; any other flag error becomes
// a usage error naming the flag.
func parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return &helpRequest{fs}
	}
	if err != nil {
		return &usageError{err: err}
	}
	return nil
}

// parseFlagsAnywhere is parseFlags for the commands whose arguments are
// a REGEX, a binary and sources: there a flag may also follow the
// arguments, as it follows pprof's -list=REGEX ("perflab list REGEX
// -sample_index=alloc_space heap.pprof"). It returns the arguments in
// order. "--" ends the flags; "-" (standard input) is an argument.
func parseFlagsAnywhere(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if n := len(args) - len(rest); len(rest) == 0 || n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// regexAndSources splits the arguments of list, peek, disasm and weblist
// into the REGEX and what follows it, naming what is missing.
func regexAndSources(args []string) (string, []string, error) {
	switch {
	case len(args) == 0:
		return "", nil, usageErrorf("missing REGEX and profile")
	case len(args) == 1 && isSourceName(args[0]):
		return "", nil, usageErrorf("missing REGEX before the profile %s: the functions to show come first", args[0])
	case len(args) == 1:
		return "", nil, usageErrorf("no profile given after REGEX %q", args[0])
	}
	return args[0], args[1:], nil
}

// isSourceName reports whether arg names a source rather than a regexp:
// standard input, an existing file or a URL with its scheme.
func isSourceName(arg string) bool {
	if _, err := os.Stat(arg); err == nil || arg == "-" {
		return true
	}
	return strings.Contains(arg, "://")
}
