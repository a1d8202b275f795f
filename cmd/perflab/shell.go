package main

import (
	"context"
	"io"

	rpt "github.com/perflab/perflab/report"
	"github.com/perflab/perflab/shell"
)

var shellCmd = newShellCommand(&command{
	name:     "shell",
	summary:  "pprof's interactive shell on a profile",
	synopsis: `perflab shell [flags] SOURCE...`,
	doc: `
Reads pprof's interactive commands from the terminal or a pipe and runs
them on the loaded profile: reports (top10, top5 -cum, list DFS, peek
mapaccess, tree, traces, tags, raw, disasm main.hash), option assignments (nodefraction=0.1,
sample_index=alloc_space, focus=main), "help", "o" and "quit". On a
terminal, lines can be edited: Up and Down recall earlier commands, Tab
completes commands, options and (after a report command) function names.
"top >file" writes the report to file, only if it succeeds. "web main.run"
serves the web viewer on loopback and prints the URL of its call graph
with the shell's options and that focus (opened in the browser on a
terminal); "weblist REGEX" likewise its source view; "svg >file" draws the
graph as SVG, without Graphviz (without a file, to a new profileNNN.svg).

Flags: those of the report commands (see 'perflab help top'), which set the
shell's initial options, as pprof's flags do.
`,
	examples: `
perflab shell cpu.pprof
printf 'top5 -cum\nlist main.DFS\n' | perflab shell cpu.pprof
`,
})

// newShellCommand completes the shell command with its run function.
func newShellCommand(c *command) *command {
	c.run = func(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
		return runShell(ctx, c, stdout, stderr, stdin, args)
	}
	return c
}

// runShell loads the profile and runs the shell on commands read from stdin.
func runShell(ctx context.Context, c *command, stdout, stderr io.Writer, stdin io.Reader, args []string) error {
	p, o, _, err := loadReportArgs(ctx, c, rpt.Tags, stdin, stdout, stderr, args)
	if err != nil {
		return err
	}
	sh := shell.New(p, o, stdout, stderr)
	source, graph, stop := shellViews(ctx, p, o, stdin, stderr)
	sh.SourceView, sh.GraphView = source, graph
	defer stop()
	return sh.Run(stdin)
}
