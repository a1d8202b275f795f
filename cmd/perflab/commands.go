package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/perflab/perflab/internal/term"
)

// A command is one perflab subcommand. Each lives in its own file, which
// holds what its help says (synopsis, description, examples) and its run
// function, which defines the flags with their help: "perflab help NAME"
// and -h derive the usage from them (usage.go). run never refers to its
// command: the table, its commands and their run functions are plain
// values, without init functions.
type command struct {
	name     string
	summary  string // one line for "perflab help"
	synopsis string // the usage lines, one per form: "perflab top [flags] SOURCE..."
	doc      string // what the command does, in paragraphs
	examples string // command lines, one a line
	subs     []*command
	run      func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error
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
	protoCmd,
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

// renamed maps a command's former name to its name: the former still
// works, with a line on stderr that says so.
var renamed = map[string]string{
	"run": "investigate", // perflab bench run runs benchmarks; this investigates a server
}

// lookup returns the command name, or the one it was renamed to.
func lookup(name string) *command {
	if to, ok := renamed[name]; ok {
		name = to
	}
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
	if isPprofCommandLine(args) {
		return runPprof(ctx, stdin, stdout, stderr, args)
	}
	c := lookup(args[0])
	if c == nil {
		return usageErrorf("unknown command %q; run 'perflab help' for the list", args[0])
	}
	if c.name != args[0] {
		fmt.Fprintf(stderr, "perflab: %q is deprecated: it is now perflab %s\n", args[0], c.name)
	}
	var err error
	if c == helpCmd { // help runs commands with -h: it is not in its own table's initializer
		err = runHelp(ctx, stdin, stdout, stderr, args[1:])
	} else {
		err = c.run(ctx, stdin, stdout, stderr, args[1:])
	}
	if hr := (*helpRequest)(nil); errors.As(err, &hr) {
		fmt.Fprint(stdout, c.find(hr.fs.Name()).usage(hr.fs))
		return nil
	}
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd == "" {
		ue.cmd = c.name
	}
	return err
}

// stringList is a flag that may be repeated, such as load's -H or the
// reports' -base; it keeps every value in order.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// A usageError is a mistake in the command line: exit status 2. It keeps
// its cause's chain (usageErrorf's %w), for errors.Is and errors.As.
type usageError struct {
	cmd string
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usageErrorf returns a usage error formatted as fmt.Errorf does, so that
// a %w verb keeps the cause.
func usageErrorf(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
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
		fmt.Fprintf(stderr, "%s: %s\n", name, term.Escape(ue.Error()))
		if ue.cmd != "" {
			fmt.Fprintf(stderr, "run 'perflab help %s' for usage\n", ue.cmd)
		}
		return 2
	default:
		fmt.Fprintf(stderr, "perflab: %s\n", term.Escape(term.OneLine(err.Error())))
		return 1
	}
}
