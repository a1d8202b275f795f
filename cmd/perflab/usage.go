package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
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
