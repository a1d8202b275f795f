// Command storebench measures the fleet's stores, embedded and on ClickHouse, for
// scripts/bench-store; see package storebench.
//
//	storebench build -cache DIR -days 30        prints the store's directory, built if not cached
//	storebench build -backend clickhouse -shards 2 -cache DIR -days 30
//	                                            the same for a ClickHouse store: its servers' data directory
//	storebench serve -store DIR                 starts ClickHouse on that data, prints the store's URL, stops on SIGTERM
//	storebench size -store DIR                  its size against the gzipped files
//	storebench files -store DIR -last 8h -o DIR writes the last 8 hours as gzipped pprof files
//	storebench merge -store DIR -last 8h -o F   merges the last 8 hours, timed, into F (-url URL for ClickHouse)
//	storebench totals -store DIR -last 168h -step 1h -focus RE   the time series of a week, timed (-url URL for ClickHouse)
//	storebench write -n 4000                    the rate of Write, profiles/s and per CPU second (-backend clickhouse: ClickHouse's CPU counted)
//	storebench ingest -instances 1000 -n 20000  writes a fleet's profiles (run it under /usr/bin/time for the RSS)
//	storebench memory -series 1000 -days 30     the heap of an open store of many series, and the head's per profile
//
// Each prints one line of figures on stdout.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// errUsage reports wrong arguments, once the usage has been printed.
var errUsage = errors.New("usage")

func main() {
	switch err := run(os.Args[1:], os.Stdout, os.Stderr); {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "storebench: %v\n", err)
		os.Exit(1)
	}
}

// commands are storebench's subcommands.
var commands = map[string]func(ctx context.Context, stdout, stderr io.Writer, args []string) error{
	"build":  build,
	"serve":  serve,
	"size":   size,
	"files":  files,
	"merge":  merge,
	"totals": totals,
	"write":  write,
	"ingest": ingest,
	"memory": memory,
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || commands[args[0]] == nil {
		fmt.Fprintln(stderr, "usage: storebench build|serve|size|files|merge|totals|write|ingest|memory [flags]")
		return errUsage
	}
	return commands[args[0]](context.Background(), stdout, stderr, args[1:])
}

// flags returns a FlagSet for command name whose errors go to stderr.
func flags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("storebench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parse parses args, turning a flag error into errUsage.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
