// Package namedfile opens the files that input names: the source files a
// profile's functions, a goroutine dump's frames or the compiler's
// diagnostics point at, and the binaries of a profile's mappings. Whoever
// wrote the input chose those names, so every such file is opened here,
// under one policy:
//
//   - paths under /proc, /sys and /dev — checked on the cleaned absolute
//     name and again after resolving symbolic links — are never opened:
//     /proc/self/environ and /proc/self/cmdline would show perflab's
//     environment (PERFLAB_TOKEN) and command line (-token=...);
//   - files are opened without blocking (a FIFO would otherwise wait for a
//     writer for ever) and only regular files are used;
//   - ReadFile reads at most a given size, and only a file whose length
//     read equals its size: pseudo-files elsewhere (procfs mounted at
//     another place, sysfs) stat as small regular files and read otherwise.
//
// Files the user names on the command line (profiles, -o outputs) do not
// go through this package, the user may mean a FIFO or /dev/stdin; a
// binary the user names goes through OpenArg: not blocking, a regular
// file, but it may be /proc/PID/exe.
package namedfile
