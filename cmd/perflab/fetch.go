package main

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

var fetchCmd = &command{
	name:     "fetch",
	summary:  "fetch a profile or trace from a URL and save it",
	synopsis: `perflab fetch [flags] -o FILE SOURCE`,
	doc: `
Fetch downloads a profile or an execution trace and saves it to FILE byte
for byte as the server sent it (usually gzipped profile.proto), after
checking what it is: a profile is decoded, a trace is read to its last
event while it streams to FILE, a goroutine dump in text (goroutine?debug=2,
which perflab goroutines reads) is read for its goroutines. Anything else
is refused unless -raw is given. The message on stderr says what was
saved: of a profile, its type and total as pprof's header says them, and
for a CPU profile the number of samples taken. SOURCE is a URL such as http://host:port/debug/pprof/heap, or a bare
host:port meaning http://host:port/debug/pprof/profile (a CPU profile), as
in go tool pprof. On a terminal, a countdown shows while the server
collects a CPU profile or trace. FILE "-" means standard output; a device
or pipe is written in place, a regular file replaced only once complete.
`,
	examples: `
perflab fetch -o cpu.pb.gz localhost:6060
perflab fetch -seconds 5 -o cpu.pb.gz http://localhost:6060/debug/pprof/profile
perflab fetch -seconds 5 -o trace.out http://localhost:6060/debug/pprof/trace
perflab fetch -o heap.pb.gz http://localhost:6060/debug/pprof/heap
PERFLAB_TOKEN=s3cret perflab fetch -o heap.pb.gz http://localhost:6060/debug/pprof/heap
perflab fetch -o goroutines.txt 'http://localhost:6060/debug/pprof/goroutine?debug=2'
perflab top cpu.pb.gz
`,
	run: runFetch,
}

func runFetch(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("fetch")
	out := fs.String("o", "", "where to save the profile: `FILE` (required; its directory must exist)")
	raw := fs.Bool("raw", false, "save any response as is, unchecked")
	sf := addSourceFlags(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf("-o FILE is required")
	case fs.NArg() != 1:
		return usageErrorf("want exactly one SOURCE, got %d", fs.NArg())
	}
	opts, err := sf.options(stdin, stderr)
	if err != nil {
		return err
	}
	opts.Text = goroutineDump
	src := fs.Arg(0)
	saved, err := fetchTo(ctx, *out, src, *raw, opts, stdout)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, savedMessage(saved, *out))
	return nil
}

// savedMessage says what fetch saved to out: for a profile, what pprof's
// header would say of it ("Type: cpu", "Total samples = 990ms") and, for
// a CPU profile, how many samples that is.
func savedMessage(saved profiles.Saved, out string) string {
	switch saved.Kind {
	case "profile":
		s, err := rpt.Summarize(saved.Profile)
		if err != nil {
			return fmt.Sprintf("Saved the profile (%d bytes) to %s", saved.Bytes, out)
		}
		count := ""
		if s.Samples >= 0 {
			count = fmt.Sprintf(": %d samples", s.Samples)
			if s.Period != "" {
				count += " of " + s.Period
			}
		}
		return fmt.Sprintf("Saved the profile (Type: %s, Total samples = %s%s; %d bytes) to %s", s.Type, s.Total, count, saved.Bytes, out)
	case "trace":
		return fmt.Sprintf("Saved the trace (%d events, %d bytes) to %s", saved.Events, saved.Bytes, out)
	case "text":
		return fmt.Sprintf("Saved the %s (%d bytes) as is to %s", saved.What, saved.Bytes, out)
	}
	return fmt.Sprintf("Saved %d bytes as is to %s", saved.Bytes, out)
}

// goroutineDump is fetch's profiles.Options.Text: it accepts a goroutine
// dump in text (net/http/pprof's goroutine?debug=2), which perflab
// goroutines reads.
func goroutineDump(data []byte) (string, bool) {
	d := goroutines.NewDump()
	if err := goroutines.Read("", bytes.NewReader(data), d, goroutines.Options{}); err != nil {
		return "", false
	}
	return fmt.Sprintf("goroutine dump of %d goroutines", d.Total), true
}

// fetchTo saves src to the file name, or to stdout for "-". The file is
// opened first, so that an unwritable one is reported before a long fetch,
// and appears complete or not at all (see atomicfile).
func fetchTo(ctx context.Context, name, src string, raw bool, opts profiles.Options, stdout io.Writer) (profiles.Saved, error) {
	if name == "-" {
		return profiles.Fetch(ctx, src, stdout, raw, opts)
	}
	f, err := atomicfile.Create(name)
	if err != nil {
		return profiles.Saved{}, err
	}
	w := &recordingWriter{w: f}
	saved, err := profiles.Fetch(ctx, src, w, raw, opts)
	if w.err != nil {
		err = fmt.Errorf("writing %s: %w", name, atomicfile.Unwrap(w.err))
	}
	if err != nil {
		f.Abort()
		return saved, err
	}
	return saved, f.Commit()
}

// A recordingWriter keeps the first error of its writer, to tell the
// destination's failures from the source's.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}
