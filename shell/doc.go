// Package shell is pprof's interactive shell on a loaded profile: it reads
// commands such as "top10 -cum", "list DFS" or "peek mapaccess" and runs
// them with package report, and option assignments such as
// "nodefraction=0.1" or "sample_index=alloc_space" change the settings of
// the reports that follow (settings.All lists them).
//
// On a pipe the shell reads plain lines and prints exactly what
// `go tool pprof` prints for the same input, prompts included. On a
// terminal it edits lines with golang.org/x/term: history (Up, Down),
// cursor movement, and completion with Tab of commands, option names and,
// after a report command, the profile's function names.
//
// Reports go to the shell's stdout, or with "> file" to a file written
// only once the report is complete; the greeting, errors and help go to
// its stderr, as in pprof.
package shell
