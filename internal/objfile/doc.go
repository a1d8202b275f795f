// Package objfile reads executables — ELF (Linux, FreeBSD), Mach-O
// (macOS) and PE (Windows) — for the disassembler (package disasm), the
// symbolizer of legacy profiles (package profiles) and the decoder of
// goroutine arguments (package goroutines): one reader of object files
// with one set of bounds.
//
// A profile names its binaries (its mappings' files, found as they are
// or along $PPROF_BINARY_PATH), so an object file may be hostile: a few
// megabytes whose sections, compressed (SHF_COMPRESSED or .zdebug),
// declare gigabytes, or a sparse file with a huge .text. Open opens the
// file as package namedfile opens every file input names (never under
// /proc, /sys or /dev, without blocking, regular files only; OpenArg,
// for the binary the user names, allows /proc/PID/exe), and then:
//
//   - parsing the headers (and the symbol tables that debug/macho and
//     debug/pe read with them) may read at most MaxHeaderBytes;
//   - a section is read only if its size — for a compressed section the
//     uncompressed size it declares, checked before decompressing — is at
//     most MaxSectionBytes (MaxSymbolBytes for a symbol or string table);
//   - all the sections read from one file together stay within
//     MaxReadBytes.
//
// Beyond a bound the method fails with a *LimitError (errors.Is
// ErrTooLarge) naming the section: perflab's memory stays near what a
// real binary of that size needs.
package objfile
