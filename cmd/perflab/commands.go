package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/perflab/perflab/internal/term"
)

// A command is one perflab subcommand. Each lives in its own file, which
// holds its usage text (with examples) and its run function.
type command struct {
	name    string
	summary string // one line for "perflab help"
	usage   string // full text for "perflab help NAME" and -h
	run     func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error
}

// commands is the table of subcommands, in the order "perflab help" lists them.
var commands = []*command{
	fetchCmd,
	topCmd,
	listCmd,
	disasmCmd,
	weblistCmd,
	peekCmd,
	treeCmd,
	graphCmd,
	tracesCmd,
	tagsCmd,
	rawCmd,
	flameCmd,
	escapesCmd,
	shellCmd,
	traceCmd,
	webCmd,
	serverCmd,
	queryCmd,
	pgoCmd,
	loadCmd,
	investigateCmd,
	gcCmd,
	schedCmd,
	goroutinesCmd,
	benchCmd,
	demoCmd,
	versionCmd,
	helpCmd,
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run runs the command line args: it takes out the -sanitize flag, wraps
// stdout and stderr as it asks (see sanitizeOutput) and dispatches args[0]
// to its subcommand.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	args, sanitize, err := sanitizeFlag(args)
	if err != nil {
		return err
	}
	stdout, stderr, flush := sanitizeOutput(stdout, stderr, sanitize)
	defer flush()
	return dispatch(ctx, stdin, stdout, stderr, args)
}

// dispatch runs the subcommand args[0].
func dispatch(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	if len(args) == 0 {
		printOverview(stderr)
		return errSilentUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printOverview(stdout)
		return nil
	case "-version", "--version":
		args = []string{"version"}
	}
	c := lookup(args[0])
	if c == nil {
		return usageErrorf("unknown command %q; run 'perflab help' for the list", args[0])
	}
	err := c.run(ctx, stdin, stdout, stderr, args[1:])
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd == "" {
		ue.cmd = c.name
	}
	return err
}

// newFlagSet returns a FlagSet for cmd that reports errors instead of
// printing them, so that parseFlags can turn them into usage errors.
func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args into fs. -h prints the command's usage to stdout
// and returns errHelp; any other flag error becomes a usage error naming the flag.
func parseFlags(c *command, fs *flag.FlagSet, stdout io.Writer, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, c.usage)
		return errHelp
	}
	if err != nil {
		return &usageError{cmd: c.name, msg: err.Error()}
	}
	return nil
}

// stringList is a flag that may be repeated, such as load's -H or the
// reports' -base; it keeps every value in order.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// A usageError is a mistake in the command line: exit status 2.
type usageError struct {
	cmd string
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// exitStatus is an error that carries an exit status and prints nothing,
// e.g. the status of a program perflab ran on the user's behalf.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

var (
	// errHelp means usage was printed on request: exit status 0.
	errHelp = errors.New("help requested")
	// errSilentUsage means usage was printed already: exit status 2.
	errSilentUsage = errors.New("usage")
)

// exitCode prints err, if it needs printing, and returns the exit status:
// 0 success, 1 failure, 2 usage error. The message is escaped (see
// term.Escape) whatever the output: it is one line of text, and its parts
// may come from the input, a program or a server.
func exitCode(stderr io.Writer, err error) int {
	var ue *usageError
	var es exitStatus
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errSilentUsage):
		return 2
	case errors.As(err, &es):
		return int(es)
	case errors.As(err, &ue):
		name := "perflab"
		if ue.cmd != "" {
			name += " " + ue.cmd
		}
		fmt.Fprintf(stderr, "%s: %s\n", name, term.Escape(ue.msg))
		if ue.cmd != "" {
			fmt.Fprintf(stderr, "run 'perflab help %s' for usage\n", ue.cmd)
		}
		return 2
	default:
		fmt.Fprintf(stderr, "perflab: %s\n", term.Escape(oneLine(err.Error())))
		return 1
	}
}

// oneLine folds a multi-line error message onto one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ; ")), " ")
}
