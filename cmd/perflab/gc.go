package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/godebug"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/program"
	"github.com/perflab/perflab/internal/term"
)

var gcCmd = &command{
	name:    "gc",
	summary: "summarise GODEBUG=gctrace output, or run a program under it",
	synopsis: `perflab gc [flags] [FILE|-]
perflab gc [flags] -- PROGRAM [ARGS...]`,
	doc: `
Reads the lines GODEBUG=gctrace=1 makes the Go runtime write to standard
error (Go 1.19 to 1.26 formats; gctrace=2 and gcpacertrace=1 lines too) and
summarises them: number of GCs and GCs per second, the runtime's GC CPU
share, stop-the-world pauses (sweep plus mark termination) as p50/p90/p99/max
and how many exceed 100µs, concurrent mark time, the share of GC CPU spent
in assists, the heap over time, forced GCs, and a verdict on the live heap:
"possible leak" when a least-squares trend shows it still growing at the
end of a run of at least 10 GCs and 5 s, "heap growing; too short to call
it a leak" when it grows over a shorter run (a program still loading its
data looks the same), "steady" otherwise. Other lines are ignored;
malformed trace lines are counted and reported. A trace of several
processes one after another (the GC numbering or the clock goes back) is
summarised process by process.

With -- it runs PROGRAM with gctrace=1 merged into any GODEBUG it already
has, passes its standard output and error through (without the trace lines
unless -v), analyses the trace as it comes, prints the summary when the
program exits or on Ctrl-C (passed on to the program's process group,
which is killed 2s later if it has not ended), and exits with the
program's status. The
summary goes to standard output after the program's own output; use -o to
keep them apart. "go test PKG [flags]" and "go run PKG [args]" are built
first without GODEBUG (go test -c, go build), so that the go command's,
the compiler's and the linker's collections stay out; then only the binary
runs, the test binary in its package directory with the test flags.
`,
	examples: `
GODEBUG=gctrace=1 ./server 2> gc.log; perflab gc gc.log
perflab gc -html gc.html -- ./server -addr 127.0.0.1:8080
perflab gc -json -- go test -run TestBig ./pkg
GODEBUG=gctrace=1 ./server 2>&1 >/dev/null | perflab gc -
`,
	run: runGC,
}

// godebugFlags are the flags gc and sched share, for GODEBUG traces
// (gctrace, schedtrace); execTraceFlags are trace's, for execution traces.
type godebugFlags struct {
	json    bool
	html    string
	out     string
	verbose bool
}

func addGodebugFlags(fs *flag.FlagSet) *godebugFlags {
	f := new(godebugFlags)
	fs.BoolVar(&f.json, "json", false, "print the summary as JSON (schema in docs/godebug.md)")
	fs.StringVar(&f.html, "html", "", "also write an HTML page of charts (heap, pauses and GC CPU for gc; run queues and Ps for sched) to `FILE`")
	fs.StringVar(&f.out, "o", "", "write the summary to `FILE` instead of standard output")
	fs.BoolVar(&f.verbose, "v", false, "with --, pass the trace lines through to standard error too")
	return f
}

func runGC(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("gc")
	flags := addGodebugFlags(fs)
	pacer := fs.Bool("pacer", false, "with --, also set gcpacertrace=1")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	settings := []string{"gctrace=1"}
	if *pacer {
		settings = append(settings, "gcpacertrace=1")
	}
	var a godebug.GCAnalyzer
	progress := func() string {
		last := a.Last()
		return fmt.Sprintf("gc: %d GCs, live heap %d MB, last pause %v", a.GCs(), last.HeapLive>>20, last.Pause().Round(time.Microsecond))
	}
	r := &godebugReader{cmd: "gc", flags: flags, settings: settings, stdin: stdin, stdout: stdout, stderr: stderr, handle: a.Add, progress: progress}
	tr, err := r.read(ctx, fs, args)
	if err != nil {
		return err
	}
	sum := a.Summary(tr.elapsed)
	if !tr.ran && sum.GCs == 0 {
		return fmt.Errorf("%s: no gctrace lines (run the program with GODEBUG=gctrace=1)", tr.name)
	}
	charts := func() []chart.Chart { return gcCharts(a.Points()) }
	if err := writeReport(flags, stdout, sum, sum.WriteText, "perflab gc: "+tr.name, charts); err != nil {
		return err
	}
	return tr.exit()
}

// A godebugRun is what reading a GODEBUG trace left to report.
type godebugRun struct {
	name    string        // the input, for messages
	ran     bool          // a program was run
	status  int           // its exit status
	elapsed time.Duration // how long it ran
}

// exit returns the error that makes perflab exit with the program's status.
func (tr *godebugRun) exit() error {
	if tr.ran && tr.status != 0 {
		return exitStatus(tr.status)
	}
	return nil
}

// A godebugReader feeds a GODEBUG trace to an analyzer, for gc and sched alike.
type godebugReader struct {
	cmd      string // the command's name, for messages
	flags    *godebugFlags
	settings []string // GODEBUG settings for a program run after --
	stdin    io.Reader
	stdout   io.Writer
	stderr   io.Writer
	handle   func(godebug.Record)
	progress func() string // the progress line's text
	warned   int
}

// read feeds every trace record to handle: from the program after "--"
// when the command line has one, else from the file named by the one
// argument, or standard input for "-" or no argument.
func (r *godebugReader) read(ctx context.Context, fs *flag.FlagSet, args []string) (*godebugRun, error) {
	rest := fs.Args()
	if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
		if len(rest) == 0 {
			return nil, usageErrorf("-- needs a program to run")
		}
		return r.run(ctx, rest)
	}
	if r.flags.verbose {
		return nil, usageErrorf("-v applies only when running a program after --")
	}
	if len(rest) > 1 {
		return nil, usageErrorf("want one input file, got %d arguments (put a program to run after --)", len(rest))
	}
	if len(rest) == 0 || rest[0] == "-" {
		return r.scan(r.stdin, "standard input")
	}
	f, err := os.Open(rest[0])
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return r.scan(f, rest[0])
}

// scan reads a trace from a file.
func (r *godebugReader) scan(in io.Reader, name string) (*godebugRun, error) {
	h := r.recorder(name)
	s := godebug.NewScanner(in)
	for s.Scan() {
		if _, text := s.Result().(*godebug.Text); !text {
			h(s.Result())
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return &godebugRun{name: name}, nil
}

// recorder returns a handler that passes records on and reports the
// first malformed lines of the input name on stderr.
func (r *godebugReader) recorder(name string) func(godebug.Record) {
	return func(rec godebug.Record) {
		if se, ok := rec.(*godebug.SyntaxError); ok && r.warned < 3 {
			r.warned++
			fmt.Fprintf(r.stderr, "perflab %s: %s:%d: malformed %s trace line: %s\n", r.cmd, name, se.Line, se.Kind, se.Msg)
		}
		r.handle(rec)
	}
}

// run runs the program in argv under the GODEBUG settings. "go test" and
// "go run" are built first, without them, and only the binary is traced.
func (r *godebugReader) run(ctx context.Context, argv []string) (*godebugRun, error) {
	plan, err := program.Parse(argv)
	if err != nil {
		return nil, usageErrorf("%w", err)
	}
	tmp, err := os.MkdirTemp("", "perflab-build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	name := plan.Name()
	argv, dir, err := plan.Build(ctx, tmp, r.stderr)
	if err != nil {
		return nil, err
	}
	if plan.Built() {
		fmt.Fprintf(r.stderr, "perflab %s: built %s first; tracing only the program it built\n", r.cmd, name)
	}
	line := term.NewLine(r.stderr)
	// The program's own output to the terminal would run into the line.
	showProgress := line.Enabled() && !term.IsTerminal(r.stdout)
	var last time.Time
	h := r.recorder(name)
	proc, err := program.Start(ctx, program.Config{Argv: argv, Dir: dir, GODEBUG: r.settings, Stdin: r.stdin, Stdout: r.stdout})
	if err != nil {
		return nil, err
	}
	scanErr := godebug.ScanStderr(proc.Stderr(), clearingWriter{w: r.stderr, line: line}, r.flags.verbose, func(rec godebug.Record) {
		h(rec)
		if showProgress && time.Since(last) > 200*time.Millisecond {
			last = time.Now()
			line.Printf("%s", r.progress())
		}
	})
	status, elapsed, err := proc.Wait()
	line.Clear()
	if err = errors.Join(err, scanErr); err != nil {
		return nil, fmt.Errorf("running %s: %w", name, err)
	}
	return &godebugRun{name: name, ran: true, status: status, elapsed: elapsed}, nil
}

// clearingWriter erases the progress line before passing output through.
type clearingWriter struct {
	w    io.Writer
	line *term.Line
}

func (c clearingWriter) Write(p []byte) (int, error) {
	c.line.Clear()
	return c.w.Write(p)
}

// writeReport writes the summary as text or JSON to stdout or -o FILE,
// and with -html FILE a page of the text summary and the charts, which
// are made only then.
func writeReport(flags *godebugFlags, stdout io.Writer, summary any, text func(io.Writer) error, title string, charts func() []chart.Chart) error {
	var textBuf strings.Builder
	if !flags.json || flags.html != "" {
		if err := text(&textBuf); err != nil {
			return err
		}
	}
	out := textBuf.String()
	if flags.json {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(summary); err != nil {
			return err
		}
		out = buf.String()
	}
	if flags.html != "" {
		page := &chart.Page{Title: title, Summary: textBuf.String(), Charts: charts()}
		if err := atomicfile.Write(flags.html, page.Render); err != nil {
			return err
		}
	}
	if flags.out != "" {
		return atomicfile.Write(flags.out, func(w io.Writer) error {
			_, err := io.WriteString(w, out)
			return err
		})
	}
	_, err := io.WriteString(stdout, out)
	return err
}
