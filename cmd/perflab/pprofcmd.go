package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/atomicfile"
)

// A pprofFormat is one of go tool pprof's output flags and the perflab
// command that writes the same output.
type pprofFormat struct {
	cmd []string // the command and its flags; a REGEX or -http's value follows
	// value: the flag takes a value ("-list=REGEX", "-http=HOST:PORT").
	value bool
	// valueFlag, if not "", is the perflab flag the value goes to; else
	// the value is the command's first argument (REGEX).
	valueFlag string
	// why not, for the outputs perflab does not write.
	refused string
}

const pprofNoGraphviz = "perflab draws graphs as SVG, without Graphviz: use -svg or -web"

// pprofFormats are go tool pprof's output flags, by name: with one of them
// (or none: the shell), pprof's own command line runs as perflab's
// command ("perflab -top cpu.pprof" is "perflab top cpu.pprof").
var pprofFormats = map[string]pprofFormat{
	"top":         {cmd: []string{"top"}},
	"text":        {cmd: []string{"top"}},
	"list":        {cmd: []string{"list"}, value: true},
	"peek":        {cmd: []string{"peek"}, value: true},
	"disasm":      {cmd: []string{"disasm"}, value: true},
	"weblist":     {cmd: []string{"weblist"}, value: true},
	"traces":      {cmd: []string{"traces"}},
	"tree":        {cmd: []string{"tree"}},
	"tags":        {cmd: []string{"tags"}},
	"raw":         {cmd: []string{"raw"}},
	"proto":       {cmd: []string{"proto"}},
	"dot":         {cmd: []string{"graph", "-dot"}},
	"svg":         {cmd: []string{"graph", "-svg"}},
	"web":         {cmd: []string{"graph", "-web"}},
	"http":        {cmd: []string{"web"}, value: true, valueFlag: "-http"},
	"png":         {refused: pprofNoGraphviz},
	"pdf":         {refused: pprofNoGraphviz},
	"gif":         {refused: pprofNoGraphviz},
	"ps":          {refused: pprofNoGraphviz},
	"eog":         {refused: pprofNoGraphviz},
	"evince":      {refused: pprofNoGraphviz},
	"gv":          {refused: pprofNoGraphviz},
	"callgrind":   {refused: "perflab writes no callgrind format"},
	"kcachegrind": {refused: "perflab writes no callgrind format"},
	"topproto":    {refused: "perflab writes no top entries as protobuf: use -top, or -proto for the profile"},
}

// hostPort matches a bare host:port source, as in "go tool pprof localhost:6060".
var hostPort = regexp.MustCompile(`^[A-Za-z0-9.\-\[\]:]*:[0-9]+(/.*)?$`)

// isPprofCommandLine reports whether args is go tool pprof's command line
// rather than perflab's: it starts with a flag (not one of perflab's own,
// which dispatch answers first) or with a source (a file, a URL, host:port)
// that is not a command's name.
func isPprofCommandLine(args []string) bool {
	a := args[0]
	if strings.HasPrefix(a, "-") && a != "-" {
		return true
	}
	if lookup(a) != nil {
		return false
	}
	if _, err := os.Stat(a); err == nil {
		return true
	}
	return strings.Contains(a, "://") || hostPort.MatchString(a)
}

// pprofCommand turns pprof's command line into perflab's: its output flag
// becomes the command, its value the REGEX or -http's; without one it is
// the shell. pprof's -output is returned apart, for runPprof.
func pprofCommand(args []string) (cmd []string, output string, err error) {
	var rest []string
	var chosen, value string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, v, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		f, isFormat := pprofFormats[name]
		if !strings.HasPrefix(a, "-") || a == "-" || !isFormat && name != "output" {
			rest = append(rest, a)
			continue
		}
		if name == "output" || f.value {
			if !hasValue {
				if i+1 == len(args) {
					return nil, "", usageErrorf("flag needs an argument: -%s", name)
				}
				i++
				v = args[i]
			}
			if name == "output" {
				output = v
				continue
			}
		} else if hasValue && v != "true" {
			return nil, "", usageErrorf("-%s takes no value in perflab: got %q", name, v)
		}
		if f.refused != "" {
			return nil, "", usageErrorf("-%s: %s", name, f.refused)
		}
		if chosen != "" {
			return nil, "", usageErrorf("-%s and -%s: give one output format, as pprof", chosen, name)
		}
		chosen, value = name, v
	}
	if chosen == "" {
		return append([]string{"shell"}, rest...), output, nil
	}
	f := pprofFormats[chosen]
	cmd = append([]string(nil), f.cmd...)
	switch {
	case f.valueFlag != "":
		cmd = append(cmd, f.valueFlag+"="+value)
	case f.value:
		cmd = append(cmd, value)
	}
	return append(cmd, rest...), output, nil
}

// runPprof runs pprof's command line args as perflab's command, writing
// its output to pprof's -output file, if one is given, as pprof does:
// the report made in memory, then "Generating report in FILE" on stderr
// and the file written whole.
func runPprof(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	cmd, output, err := pprofCommand(args)
	if err != nil {
		return err
	}
	if output == "" {
		return dispatch(ctx, stdin, stdout, stderr, cmd)
	}
	switch cmd[0] {
	case "shell", "web", "weblist":
		return usageErrorf("-output applies to reports, not to %s", cmd[0])
	case "graph":
		if cmd[1] == "-web" {
			return dispatch(ctx, stdin, stdout, stderr, append(cmd, "-o", output))
		}
	}
	var buf bytes.Buffer
	if err := dispatch(ctx, stdin, &buf, stderr, cmd); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "Generating report in", output)
	return atomicfile.Write(output, func(w io.Writer) error {
		_, err := buf.WriteTo(w)
		return err
	})
}
