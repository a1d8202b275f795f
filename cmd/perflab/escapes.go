package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/term"
	rpt "github.com/perflab/perflab/report"
)

var escapesCmd = &command{
	name:     "escapes",
	summary:  "allocation sites of a heap profile with the compiler's reasons",
	synopsis: `perflab escapes [flags] [BINARY] SOURCE...`,
	doc: `
Lists the allocation sites of a heap or allocs profile, heaviest first by
the chosen sample type (default alloc_space), grouped into categories —
address taken and outlives the call, passed to an interface or ...any,
size not known at compile time, too large for the stack, captured by a
closure, appended beyond capacity, string/[]byte conversion, allocated
inside a called function, other — each with a hint. Every site shows its
bytes, objects, function, file:line and the compiler's own messages for
that line ("moved to heap: u", "s escapes to heap", ...).

A sample is charged to the innermost frame in your code (a source file
that exists outside GOROOT and the module cache), with "via F" when a
called function allocated. File names of a binary built with -trimpath
(module/path/file.go) are found with 'go list' from the current directory. The packages of those lines are built with
'go build -gcflags=-json=0,DIR -m' (output in a temporary directory; the
source tree is not written). If they cannot be built, one line on stderr
says why and the sites are listed without reasons. -json prints the
analysis as JSON (see docs/escapes.md).
`,
	examples: `
go test -run=NONE -bench=Handler -memprofile=mem.pprof ./examples/leftpad
perflab escapes mem.pprof
perflab escapes -sample_index=alloc_objects -flow mem.pprof
perflab escapes -json http://127.0.0.1:6060/debug/pprof/allocs
`,
	run: runEscapes,
}

// runEscapes loads a heap profile, joins its allocation sites to the
// compiler's notes and prints them.
func runEscapes(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("escapes")
	rf := addReportFlags(fs, rpt.Raw)
	asJSON := fs.Bool("json", false, "print JSON")
	flow := fs.Bool("flow", false, "show the compiler's flow under each reason")
	args, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	rest := skipBinary(args)
	p, o, err := rf.load(ctx, stdin, stderr, rest)
	if err != nil {
		return err
	}
	if err := rpt.Filter(p, o); err != nil {
		return err
	}
	compilenotes.ResolveTrimmed(ctx, p, "", compilenotes.Options{})
	a, err := compilenotes.Analyze(ctx, p, compilenotes.AnalyzeOptions{SampleIndex: o.SampleIndex})
	if err != nil {
		return fmt.Errorf("%s: %w", rest[len(rest)-1], err)
	}
	if a.BuildError != "" {
		fmt.Fprintf(stderr, "perflab escapes: no compiler notes: %s\n", term.OneLine(a.BuildError))
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(a)
	}
	cwd, _ := os.Getwd()
	return a.WriteText(stdout, compilenotes.TextOptions{Fraction: o.NodeFraction, Max: max(o.NodeCount, 0), Flow: *flow, Dir: cwd})
}

// skipBinary drops a leading executable from a report's arguments, as in
// pprof's "[BINARY] SOURCE": Go profiles carry their symbols.
func skipBinary(args []string) []string {
	if len(args) < 2 {
		return args
	}
	f, err := os.Open(args[0])
	if err != nil {
		return args
	}
	defer f.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(f, head); err != nil {
		return args
	}
	for _, magic := range [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xce, 0xfa, 0xed, 0xfe}, []byte("MZ")} {
		if bytes.HasPrefix(head, magic) {
			return args[1:]
		}
	}
	return args
}
