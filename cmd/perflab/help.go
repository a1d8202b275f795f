package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"text/tabwriter"
)

var helpCmd = &command{
	name:     "help",
	summary:  "show the list of commands, or one command's usage",
	synopsis: `perflab help [COMMAND]`,
	doc: `
Without an argument, lists perflab's commands. With one, prints that
command's usage and examples.
`,
	examples: `
perflab help
perflab help top
`,
}

// runHelp prints the list of commands, or runs one with -h, so that its
// usage is derived from the flags it defines. dispatch calls it: help is
// in the table it reads.
func runHelp(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("help")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		printOverview(stdout)
		return nil
	case 1:
		if lookup(fs.Arg(0)) == nil {
			return usageErrorf("unknown command %q; run 'perflab help' for the list", fs.Arg(0))
		}
		return dispatch(ctx, stdin, stdout, io.Discard, []string{fs.Arg(0), "-h"})
	default:
		return usageErrorf("help takes at most one command name")
	}
}

func printOverview(w io.Writer) {
	fmt.Fprint(w, `perflab profiles, loads, analyses and compares Go programs.

usage: perflab COMMAND [flags] [arguments]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, `
Run 'perflab help COMMAND' for a command's flags and examples.

go tool pprof's own command line works too, with its output flag as the
command: 'perflab -top cpu.pprof', 'perflab -list=REGEX [BINARY] cpu.pprof',
'perflab -http=:8080 cpu.pprof', 'perflab -svg -output=cpu.svg cpu.pprof', and
'perflab cpu.pprof' for the shell (see docs/compat.md). The commands that
take a REGEX or sources also take flags after them.

`+sanitizeUsage)
}

var versionCmd = &command{
	name:     "version",
	summary:  "print perflab's version and the Go version it was built with",
	synopsis: `perflab version`,
	doc: `
Prints perflab's module version (or "devel" for a source build) and the Go
toolchain it was built with.
`,
	examples: `
perflab version
`,
	run: runVersion,
}

func runVersion(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("version")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("version takes no arguments")
	}
	version, goVersion := "devel", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
	}
	fmt.Fprintf(stdout, "perflab %s %s\n", version, goVersion)
	return nil
}
