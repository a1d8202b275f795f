package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

var disasmCmd = &command{
	name:    "disasm",
	summary: "annotated assembly of functions matching a regex, as pprof -disasm",
	usage: `usage: perflab disasm [flags] REGEX [BINARY] SOURCE...

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

Examples:
  perflab disasm 'main.hash' cpu.pprof
  perflab disasm -inlines 'main\.(hash|mix)' ./server cpu.pprof
  perflab disasm -sample_index=alloc_space 'bytes' heap.pprof

Disassembly:
  -inlines               show each instruction's inlined call chain

` + reportFlagHelp,
}

func init() { disasmCmd.run = runDisasm }

// runDisasm parses REGEX [BINARY] SOURCE..., loads the profile and writes
// the annotated assembly.
func runDisasm(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(disasmCmd)
	rf := addReportFlags(fs, rpt.Disasm)
	var d rpt.DisasmOptions
	fs.BoolVar(&d.Inlines, "inlines", false, "show each instruction's inlined call chain")
	if err := parseFlags(disasmCmd, fs, stdout, args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return usageErrorf("missing REGEX and profile")
	}
	rf.symbol, rest = rest[0], rest[1:]
	if len(rest) > 1 && disasm.IsObjectFile(rest[0]) {
		d.Binary, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		return usageErrorf("no profile given")
	}
	o, err := rf.options(stderr)
	if err != nil {
		return usageErrorf("%v", err)
	}
	opts, err := rf.src.options(stdin, stderr)
	if err != nil {
		return err
	}
	p, err := profiles.Load(ctx, rest, opts)
	if err != nil {
		return err
	}
	runtime.GC()
	err = rpt.GenerateDisasm(stdout, p, o, d)
	if be := (*disasm.BinaryError)(nil); errors.As(err, &be) {
		return listWithoutAssembly(ctx, stdout, rest, opts, o, be)
	}
	return err
}

// listWithoutAssembly writes, when the binary cannot serve, what the
// profile alone shows of the functions (list's annotated source, as
// pprof -list) and returns the binary's error, saying so. The profile is
// loaded again: GenerateDisasm filtered it in place.
func listWithoutAssembly(ctx context.Context, stdout io.Writer, sources []string, opts profiles.Options, o rpt.Options, be *disasm.BinaryError) error {
	p, err := profiles.Load(ctx, sources, opts)
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
