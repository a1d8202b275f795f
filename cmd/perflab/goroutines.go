package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/profiles"
)

var goroutinesCmd = &command{
	name:    "goroutines",
	summary: "group the goroutines of a panic, SIGQUIT dump or goroutine profile; find leaks",
	synopsis: `perflab goroutines [flags] SOURCE...
perflab goroutines [flags] -- PROGRAM [ARGS...]`,
	doc: `
Goroutines reads goroutine stacks and groups them: goroutines with the same
frames (function, file and line; argument values, pointers and ids aside),
state and creator form one group, printed count first, the panicking
goroutine first of all with its panic value and the first frame in user
code marked (">"). Standard-library frames are dimmed on a terminal and
indented further elsewhere.

A SOURCE is a file, "-" for standard input, or a URL of a program's
/debug/pprof/goroutine (a bare host:port means that path), fetched with
?debug=2 or, where the server refuses it, ?debug=1. A file or stream may
hold any mix of a panic, a fatal error (a deadlock, concurrent map
writes), a SIGQUIT dump, GOTRACEBACK=all, system or crash output,
runtime.Stack or debug=2 text, a debug=1 goroutine profile or a binary
one, and the race detector's reports (grouped by the locations of their
two accesses); log lines in between are skipped. Dumps of Go 1.17 to 1.27
are read. An input holding several dumps (two panics, two SIGQUITs) is
reported one dump after the other. A dump cut short is read as far as it
goes, with a note.

After "--", perflab runs PROGRAM with GOTRACEBACK=all and reads its
standard error when it dies; Ctrl-\ (SIGQUIT) and Ctrl-C are forwarded to
it, so that Ctrl-\ makes it print its goroutines and exit. Its standard
output goes to perflab's standard error.
`,
	examples: `
perflab goroutines crash.txt
go test ./... 2>&1 | perflab goroutines -
perflab goroutines localhost:6060
perflab goroutines -base before.txt http://localhost:6060/debug/pprof/goroutine
perflab goroutines -args -- ./server -port 8080
perflab goroutines -json dump.txt | jq '.groups[0]'
`,
	run: runGoroutines,
}

// goroutinesFlags are the flags of perflab goroutines.
type goroutinesFlags struct {
	base, leaks stringList
	wait        time.Duration
	args, json  bool
	binary      string
	sf          *sourceFlags
}

func runGoroutines(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("goroutines")
	f := &goroutinesFlags{}
	fs.Var(&f.base, "base", "compare with an earlier dump: counts show the growth, and groups that grew are reported (\"+200 goroutines in main.worker, blocked on chan receive ≥ 5 minutes, created by main.main at main.go:48: likely leak\")")
	fs.Var(&f.leaks, "leaks", "a goroutineleak profile (Go 1.26 with GOEXPERIMENT=goroutineleakprofile, Go 1.27): its goroutines are marked as leaked for certain. URL sources are also asked for /debug/pprof/goroutineleak, where the runtime serves it")
	fs.DurationVar(&f.wait, "wait", time.Minute, "report groups waiting at least D as waiting long (default 1m; the runtime counts whole minutes)")
	fs.BoolVar(&f.args, "args", false, "print each frame's argument words, and decode those of the panicking frame (slices as ptr/len/cap, strings as ptr/len, packed small integers) from its parameter types")
	fs.BoolVar(&f.json, "json", false, "write JSON: {\"total\", \"panic\": {\"value\", \"goroutine\"}, \"groups\": [{\"count\", \"base_count\", \"state\", \"wait_minutes\": {\"min\", \"max\"}, \"labels\", \"created_by\": {\"func\", \"file\", \"line\"}, \"frames\": [{\"func\", \"file\", \"line\"}]}]} (see docs/goroutines.md)")
	fs.StringVar(&f.binary, "binary", "", "the program's executable, whose DWARF data gives those types (default: PROGRAM after \"--\"; else the source file named in the frame is parsed)")
	f.sf = addSourceFlags(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	program := dashDashArgs(args, fs.Args())
	switch {
	case f.wait < 0:
		return usageErrorf("-wait %v: must not be negative", f.wait)
	case program == nil && fs.NArg() == 0:
		return usageErrorf("want a SOURCE, or -- PROGRAM")
	case program != nil && fs.NArg() > len(program):
		return usageErrorf("want SOURCEs or -- PROGRAM, not both")
	}
	opts, err := f.sf.options(stdin, stderr)
	if err != nil {
		return err
	}
	d := goroutines.NewDump()
	if program != nil {
		if f.binary == "" {
			f.binary = programPath(program[0])
		}
		err = runDumping(ctx, program, stdin, stderr, d, opts)
	} else {
		err = readDumps(ctx, fs.Args(), d, opts, false)
	}
	if err != nil {
		return err
	}
	urls := fs.Args()
	if program != nil {
		urls = nil // the program's arguments are not sources
	}
	if err := f.compare(ctx, d, urls, opts); err != nil {
		return err
	}
	d.Sort()
	if f.json {
		return d.WriteJSON(stdout)
	}
	return d.WriteText(stdout, goroutines.TextOptions{Color: term.IsTerminal(stdout), Args: f.args,
		Params: f.params, LongWait: int(f.wait / time.Minute)})
}

// dashDashArgs returns what follows "--" in args, if the flags ended there.
func dashDashArgs(args, rest []string) []string {
	if len(rest) == 0 || len(args) < len(rest)+1 || args[len(args)-len(rest)-1] != "--" {
		return nil
	}
	return rest
}

// compare applies -base and -leaks, and the leak profile of URL sources.
func (f *goroutinesFlags) compare(ctx context.Context, d *goroutines.Dump, sources []string, opts profiles.Options) error {
	if len(f.base) > 0 {
		base := goroutines.NewDump()
		if err := readDumps(ctx, f.base, base, opts, false); err != nil {
			return err
		}
		d.Compare(base)
	}
	leaks := goroutines.NewDump()
	if len(f.leaks) > 0 {
		if err := readDumps(ctx, f.leaks, leaks, opts, true); err != nil {
			return err
		}
	}
	for _, src := range sources {
		if _, err := os.Stat(src); err == nil || src == "-" {
			continue // a file
		}
		if u, ok := goroutineURL(src, "goroutineleak", "1"); ok {
			// Served only where the runtime has the profile: a refusal is no error.
			if data, err := profiles.ReadSource(ctx, u, opts); err == nil {
				_ = goroutines.Read(u, bytes.NewReader(data), leaks, goroutines.Options{Leaked: true})
			}
		}
	}
	d.MarkLeaked(leaks)
	return nil
}

// params finds the parameters of a frame's function: in the binary's
// DWARF data, else in the source file the frame names.
func (f *goroutinesFlags) params(fr goroutines.Frame) ([]goroutines.Param, error) {
	var errs []error
	if f.binary != "" {
		ps, err := goroutines.ParamsFromBinary(f.binary, fr.Func)
		if err == nil {
			return ps, nil
		}
		errs = append(errs, err)
	}
	ps, err := goroutines.ParamsFromSource(fr.File, fr.Func)
	if err == nil {
		return ps, nil
	}
	return nil, errors.Join(append(errs, err)...)
}

// readDumps reads every source into d.
func readDumps(ctx context.Context, sources []string, d *goroutines.Dump, opts profiles.Options, leaked bool) error {
	for _, src := range sources {
		if err := readDump(ctx, src, d, opts, leaked); err != nil {
			return err
		}
	}
	return nil
}

// readDump reads one source: a file and standard input are streamed, a URL
// is fetched within the limits of profiles.ReadSource.
func readDump(ctx context.Context, src string, d *goroutines.Dump, opts profiles.Options, leaked bool) error {
	gopts := goroutines.Options{MaxBytes: opts.MaxBytes, Leaked: leaked}
	if src == "-" {
		if opts.Stdin == nil {
			return fmt.Errorf("-: no standard input")
		}
		return goroutines.Read("standard input", opts.Stdin, d, gopts)
	}
	if file, err := os.Open(src); err == nil {
		defer file.Close()
		return goroutines.Read(src, file, d, gopts)
	} else if _, statErr := os.Stat(src); statErr == nil {
		return err
	}
	u, ok := goroutineURL(src, "goroutine", "2")
	if !ok {
		return fmt.Errorf("%s: no such file, and not a URL", src)
	}
	data, err := profiles.ReadSource(ctx, u, opts)
	if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, profiles.ErrTooLarge) {
		if u1, ok := goroutineURL(src, "goroutine", "1"); ok && u1 != u {
			if data1, err1 := profiles.ReadSource(ctx, u1, opts); err1 == nil {
				data, err = data1, nil // the server refuses debug=2
			}
		}
	}
	if err != nil {
		return err
	}
	return goroutines.Read(u, bytes.NewReader(data), d, gopts)
}

// goroutineURL turns a URL source into the URL of a goroutine profile
// with ?debug=N: a bare host:port gets /debug/pprof/<profile>; a URL of
// another profile under /debug/pprof/ is redirected to <profile>; a debug
// parameter already in the URL is kept when profile is "goroutine".
func goroutineURL(src, profile, debug string) (string, bool) {
	if !strings.Contains(src, "://") {
		host, _, _ := strings.Cut(src, "/")
		if !strings.Contains(host, ":") {
			return "", false // "dump.txt" is a missing file, not a host
		}
		src = "http://" + src
	}
	u, err := url.Parse(src)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", false
	}
	switch {
	case u.Path == "" || u.Path == "/":
		u.Path = "/debug/pprof/" + profile
	case profile == "goroutineleak":
		if !strings.HasSuffix(u.Path, "/goroutine") {
			return "", false
		}
		u.Path += "leak"
	}
	q := u.Query()
	if profile == "goroutineleak" || q.Get("debug") == "" || debug == "1" {
		q.Set("debug", debug)
	}
	u.RawQuery = q.Encode()
	return u.String(), true
}
