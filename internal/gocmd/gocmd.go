package gocmd

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"time"
)

// An Origin says whose idea a run of the go command is, which decides the
// environment it gets (see the package documentation).
type Origin int

const (
	// User is a build the user asked for on the command line: the go
	// command gets the environment as it is.
	User Origin = iota
	// Input is a build of code that input (a profile, a trace, a dump)
	// names: the go command runs hardened and capped.
	Input
)

// waitDelay bounds how long a cancelled go command's children (the
// compiler, the linker) may keep its output pipes open.
const waitDelay = 10 * time.Second

// A Cmd describes runs of the go command. The zero value runs "go" from
// $PATH in the current directory as a User run.
type Cmd struct {
	// Go is the go command; "" means "go" on $PATH.
	Go string
	// Dir is the directory it runs in; "" means the current one.
	Dir string
	// Env is the environment the go command's is made from: as it is for
	// User runs, reduced to KeptEnv and hardened for Input runs. nil
	// means perflab's own.
	Env []string
	// Origin is User or Input.
	Origin Origin
	// Stdout and Stderr, if not nil, receive the go command's output;
	// Output captures standard output, and an Error keeps what the
	// command wrote to a nil Stderr.
	Stdout, Stderr io.Writer
}

// Run runs the go command with args and waits for it. An Input run
// first waits for one of the MaxInputRuns slots. Its error is an *Error.
func (c Cmd) Run(ctx context.Context, args ...string) error {
	return c.run(ctx, c.Stdout, args)
}

// Output runs the go command with args and returns its standard output.
// Its error is an *Error; the output read until then is returned too.
func (c Cmd) Output(ctx context.Context, args ...string) ([]byte, error) {
	var out bytes.Buffer
	err := c.run(ctx, &out, args)
	return out.Bytes(), err
}

func (c Cmd) run(ctx context.Context, stdout io.Writer, args []string) error {
	if c.Origin == Input {
		release, err := acquire(ctx)
		if err != nil {
			return &Error{Args: args, Dir: c.Dir, Err: err}
		}
		defer release()
	}
	cmd := exec.CommandContext(ctx, c.path(), args...)
	cmd.Dir, cmd.Env, cmd.WaitDelay = c.Dir, c.Env, waitDelay // nil Env: os/exec's own, with PWD set to Dir
	if c.Origin == Input {
		cmd.Env = c.Environ()
	}
	cmd.Stdout = stdout
	var stderr strings.Builder
	cmd.Stderr = c.Stderr
	if c.Stderr == nil {
		cmd.Stderr = &stderr
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return &Error{Args: args, Dir: c.Dir, Err: err, Stderr: stderr.String()}
	}
	return nil
}

// path is the go command to start.
func (c Cmd) path() string {
	if c.Go == "" {
		return "go"
	}
	return c.Go
}

// An Error is a run of the go command that failed: it could not start,
// it exited with an error, or its context ended.
type Error struct {
	Args   []string // the go command's arguments
	Dir    string   // where it ran, "" for the current directory
	Err    error    // *exec.ExitError, context.Canceled, exec.ErrNotFound, ...
	Stderr string   // what it wrote to standard error, unless Cmd.Stderr took it
}

// Error is "go VERB [in DIR]: " and the first line of the command's
// complaint (see FirstLine), or the cause.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("go")
	if len(e.Args) > 0 {
		b.WriteString(" " + e.Args[0])
	}
	if e.Dir != "" {
		b.WriteString(" in " + e.Dir)
	}
	b.WriteString(": ")
	if line := FirstLine(e.Stderr); line != "" {
		b.WriteString(line)
	} else {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// FirstLine returns the first line of a go command's error output that is
// not a "# package" heading, trimmed; "" if there is none.
func FirstLine(stderr string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}
