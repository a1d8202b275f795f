// Command serverbench drives a perflab server for scripts/bench-server;
// see package serverbench.
//
//	serverbench push -perflab BIN -instances 1000 -rounds 4 -repeat 3
//	    pushes rounds 10-second CPU profiles of every instance to /ingest of
//	    a new server (each repeat its own, on a new store): profiles per
//	    server CPU second after the first round, profiles/s, peak RSS
//	serverbench scrape -perflab BIN -targets 100 -interval 5s -intervals 3
//	    serves that many pprof targets, has a new server scrape them: its
//	    CPU per scrape and per target-second, peak RSS
//
// Each prints its figures on stdout, one line each, the last a summary.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
)

// errUsage reports wrong arguments, once the usage has been printed.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "serverbench: %v\n", err)
		os.Exit(1)
	}
}

// commands are serverbench's subcommands.
var commands = map[string]func(ctx context.Context, stdout, stderr io.Writer, args []string) error{
	"push":   push,
	"scrape": scrape,
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || commands[args[0]] == nil {
		fmt.Fprintln(stderr, "usage: serverbench push|scrape -perflab BIN [flags]")
		return errUsage
	}
	return commands[args[0]](ctx, stdout, stderr, args[1:])
}

// flags returns a FlagSet for command name whose errors go to stderr,
// with the flag -perflab every command has.
func flags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet("serverbench "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs, fs.String("perflab", "", "the perflab `binary` to run as the server")
}

// parse parses args, turning a flag error, an argument or a missing
// -perflab into errUsage.
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
	if fs.Lookup("perflab").Value.String() == "" {
		fmt.Fprintf(fs.Output(), "%s: -perflab is required\n", fs.Name())
		return errUsage
	}
	return nil
}

// span returns "lo to hi" of figures, or the one figure.
func span(figures []float64, format string) string {
	lo, hi := slices.Min(figures), slices.Max(figures)
	if fmt.Sprintf(format, lo) == fmt.Sprintf(format, hi) {
		return fmt.Sprintf(format, lo)
	}
	return fmt.Sprintf(format+" to "+format, lo, hi)
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }
