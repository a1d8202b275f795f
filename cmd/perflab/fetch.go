package main

import (
	"context"
	"fmt"
	"io"

	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/profiles"
)

var fetchCmd = &command{
	name:    "fetch",
	summary: "fetch a profile from a URL and save it",
	usage: `usage: perflab fetch [-seconds N] [-timeout D] [-max_bytes SIZE] -o FILE SOURCE

Fetch downloads a profile and saves it to FILE byte for byte as the server
sent it (usually gzipped profile.proto), after checking that it is a
profile. SOURCE is a URL such as http://host:port/debug/pprof/heap, or a
bare host:port meaning http://host:port/debug/pprof/profile (a CPU
profile), as in go tool pprof. On a terminal, a countdown shows while the
server collects a CPU profile. FILE "-" means standard output.

Flags:
  -o FILE           where to save the profile (required)
  -seconds N        collect a CPU profile or trace for N seconds (adds ?seconds=N)
  -timeout D        give up after D (default 1.5 x seconds + 5s, else 60s)
  -max_bytes SIZE   refuse profiles larger than SIZE, also after
                    decompression (default 1GiB)

Examples:
  perflab fetch -o cpu.pb.gz localhost:6060
  perflab fetch -seconds 5 -o cpu.pb.gz http://localhost:6060/debug/pprof/profile
  perflab fetch -o heap.pb.gz http://localhost:6060/debug/pprof/heap
  perflab fetch -o goroutines.txt 'http://localhost:6060/debug/pprof/goroutine?debug=1'
  perflab top cpu.pb.gz
`,
}

func init() { fetchCmd.run = runFetch } // runFetch refers to fetchCmd.

func runFetch(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet(fetchCmd)
	out := fs.String("o", "", "")
	seconds := fs.Int("seconds", 0, "")
	timeout := fs.Duration("timeout", 0, "")
	opts := profiles.Options{MaxBytes: profiles.DefaultMaxBytes, Stdin: stdin, Progress: countdown(stderr)}
	fs.Var((*profiles.Size)(&opts.MaxBytes), "max_bytes", "")
	if err := parseFlags(fetchCmd, fs, stdout, args); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf("-o FILE is required")
	case fs.NArg() != 1:
		return usageErrorf("want exactly one SOURCE, got %d", fs.NArg())
	case *seconds < 0:
		return usageErrorf("-seconds %d: must not be negative", *seconds)
	case *timeout < 0:
		return usageErrorf("-timeout %v: must not be negative", *timeout)
	}
	opts.Seconds, opts.Timeout = *seconds, *timeout
	opts.Budget = profiles.NewBudget(opts.MaxBytes) // the bytes as served and inflated, together
	src := fs.Arg(0)
	data, err := profiles.ReadSource(ctx, src, opts)
	if err != nil {
		return err
	}
	p, err := profiles.ParseData(src, data, opts)
	if err != nil {
		return err
	}
	if err := save(*out, data, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "Saved the profile (%d samples, %d bytes) to %s\n", len(p.Sample), len(data), *out)
	return nil
}

// save writes data to the file name, or to stdout for "-". The file
// appears complete or not at all.
func save(name string, data []byte, stdout io.Writer) error {
	if name == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
