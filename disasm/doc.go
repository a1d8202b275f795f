// Package disasm reads Go executables for annotated disassembly: the text
// section, the symbol table, the Go line table (pclntab) and, on demand,
// the DWARF inlining information, of ELF, Mach-O and PE files (read by
// internal/objfile, within its bounds: a profile names the binaries, so
// they may be hostile); and decodes amd64 and arm64 machine code into Go
// assembler syntax with golang.org/x/arch, exactly as the go tool's own
// disassembler (used by `go tool pprof -disasm` and `go tool objdump`)
// does, without objdump.
//
// Open reads a binary once (OpenArg one the user named, which may be
// /proc/PID/exe); its errors are *BinaryError, naming the file and
// wrapping a cause such as ErrStripped, ErrNotGo, ErrArch or
// objfile.ErrTooLarge. Decode walks instructions with their source file
// and line; Inlined gives an instruction's inlined call chain from DWARF,
// which pprof cannot show. Locate and Candidates find a profile mapping's
// binary along $PPROF_BINARY_PATH as pprof does, and Cache opens each
// binary once.
//
// Package report joins these instructions to a profile's samples
// (report.Disassemble, report.GenerateDisasm).
package disasm
