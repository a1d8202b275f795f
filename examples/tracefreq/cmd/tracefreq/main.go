// Command tracefreq searches generated RSS documents for a topic with one
// of the variants of package tracefreq and writes an execution trace of
// the search:
//
//	tracefreq [-variant=find] [-docs=4000] [-topic=president] [-trace=trace.out]
//	perflab trace trace.out
//
// With -trace= it leaves tracing to package collect, so that perflab can
// run it: perflab trace -- tracefreq -trace= -variant=findNumCPU
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/trace"
	"time"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/examples/tracefreq"
)

func main() {
	err := run(context.Background(), os.Stdout, os.Stderr, os.Args[1:])
	os.Exit(cli.ExitStatus("tracefreq", err, os.Stderr))
}

func run(_ context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("tracefreq", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "find", "find, findConcurrent, findConcurrentSem, findNumCPU, findActor or findNumCPUTasks")
	n := fs.Int("docs", 4000, "number of documents to search")
	topic := fs.String("topic", "president", "topic to search for")
	out := fs.String("trace", "trace.out", "write the execution trace to `file`; empty for what PERFLAB_PROFILE asks (see package collect)")
	if err := fs.Parse(args); err != nil {
		return cli.FlagError{Err: err}
	}
	v, ok := tracefreq.Lookup(*variant)
	switch {
	case !ok:
		return cli.UsageError{Err: fmt.Errorf("-variant %q: unknown", *variant)}
	case *n < 0:
		return cli.UsageError{Err: errors.New("-docs must not be negative")}
	}
	docs := tracefreq.Generate(*n, *topic)
	stopTrace := func() error { return nil }
	if *out == "" {
		s := collect.Start(collect.Dir("."))
		stopTrace = s.Stop
	} else {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return err
		}
		stopTrace = func() error { trace.Stop(); return f.Close() }
	}
	start := time.Now()
	found := v.Find(*topic, docs)
	elapsed := time.Since(start)
	if err := stopTrace(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: searching %d documents, found %s %d times in %v\n", v.Name, *n, *topic, found, elapsed.Round(time.Millisecond))
	return nil
}
