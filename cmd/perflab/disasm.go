package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	rpt "github.com/perflab/perflab/report"
)

var disasmCmd = &command{
	name:     "disasm",
	summary:  "annotated assembly of functions matching a regex, as pprof -disasm",
	synopsis: `perflab disasm [flags] REGEX [BINARY] SOURCE...`,
	doc: `
Prints the machine code of every function matching REGEX with each
instruction's flat and cumulative values, exactly as
'go tool pprof -disasm=REGEX [BINARY] SOURCE' does, decoded in pure Go
(amd64 and arm64; ELF, Mach-O and PE). The binary is BINARY if given (a
first argument that is an executable), else the profile's mapping file,
looked up along $PPROF_BINARY_PATH (default $HOME/pprof/binaries) by build
ID and name, as pprof does. A binary whose build ID or addresses do not
match the profile is refused: perflab prints one line naming the binary
and the cause and exits 1, after the functions' annotated source as
'perflab list' prints it (no assembly) when there is one.

-inlines adds, under each instruction of inlined code, its call chain
from the binary's DWARF (or, without DWARF, from the profile's frames at
sampled addresses), innermost first: "| function file:line".
`,
	examples: `
perflab disasm 'main.hash' cpu.pprof
perflab disasm -inlines 'main\.(hash|mix)' ./server cpu.pprof
perflab disasm -sample_index=alloc_space 'bytes' heap.pprof
`,
	run: runDisasm,
}

// runDisasm parses REGEX [BINARY] SOURCE..., loads the profile and writes
// the annotated assembly.
func runDisasm(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("disasm")
	rf := addReportFlags(fs, rpt.Disasm)
	var d rpt.DisasmOptions
	fs.BoolVar(&d.Inlines, "inlines", false, "show each instruction's inlined call chain")
	rest, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	if rf.symbol, rest, err = regexAndSources(rest); err != nil {
		return err
	}
	if len(rest) > 1 && disasm.IsObjectFile(rest[0]) {
		d.Binary, rest = rest[0], rest[1:]
	}
	p, o, err := rf.load(ctx, stdin, stderr, rest)
	if err != nil {
		return err
	}
	err = rpt.GenerateDisasm(stdout, p, o, d)
	if be := (*disasm.BinaryError)(nil); errors.As(err, &be) {
		return listWithoutAssembly(stdout, be, func() (*profile.Profile, rpt.Options, error) {
			return rf.load(ctx, stdin, stderr, rest)
		})
	}
	return err
}

// listWithoutAssembly writes, when the binary cannot serve, what the
// profile alone shows of the functions (list's annotated source, as
// pprof -list) and returns the binary's error, saying so. The profile is
// loaded again: GenerateDisasm filtered it in place.
func listWithoutAssembly(stdout io.Writer, be *disasm.BinaryError, load func() (*profile.Profile, rpt.Options, error)) error {
	p, o, err := load()
	if err != nil {
		return be
	}
	var b bytes.Buffer
	if rpt.Generate(&b, p, rpt.List, o) != nil {
		return be
	}
	if _, err := b.WriteTo(stdout); err != nil {
		return err
	}
	return fmt.Errorf("%w (the source listing above has no assembly)", be)
}
