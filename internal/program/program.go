package program

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// A Plan is a command line to run: a binary and its arguments, or a
// "go test" or "go run" line, which Build turns into a binary first.
type Plan struct {
	argv []string
	goP  *goPlan // nil for a binary
}

// Parse reads "-- PROGRAM ARGS". A mistake in a go test or go run line
// (several packages, a flag perflab cannot honour) is a *UsageError.
func Parse(argv []string) (*Plan, error) {
	if len(argv) == 0 {
		return nil, usagef("no program to run")
	}
	gp, err := parseGoPlan(argv)
	if err != nil {
		return nil, err
	}
	return &Plan{argv: argv, goP: gp}, nil
}

// Name names the program in messages: the binary, or "go test ./pkg".
func (p *Plan) Name() string {
	if p.goP == nil {
		return p.argv[0]
	}
	return "go " + p.goP.verb + " " + strings.Join(p.goP.pkgs, " ")
}

// Built reports whether the program is a go test or go run line, which
// Build builds first.
func (p *Plan) Built() bool { return p.goP != nil }

// GoTest reports whether the program is a go test line: its binary takes
// -test.* flags.
func (p *Plan) GoTest() bool { return p.goP != nil && p.goP.verb == "test" }

// Build returns the command line to run and the directory to run it in
// ("" for perflab's own). A go test or go run line is built into dir
// first, through perflab's one go command wrapper (internal/gocmd, with
// the user's environment and module settings), its output to w; a test
// binary runs in its package's directory, as go test runs it.
func (p *Plan) Build(ctx context.Context, dir string, w io.Writer) (argv []string, runDir string, err error) {
	if p.goP == nil {
		return p.argv, "", nil
	}
	return p.goP.prepare(ctx, dir, w)
}

// A UsageError is a mistake in the program's command line.
type UsageError struct{ Msg string }

// Error returns the message.
func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}
