// Command leftpad runs the left-pad microservice of Artem Krylysov's
// "Profiling and optimizing Go web applications":
//
//	leftpad [-version=v1|v2] [-addr=127.0.0.1:8080] [-debug-addr=127.0.0.1:6060] [-statsd=127.0.0.1:8125] [-log=FILE]
//	curl 'http://127.0.0.1:8080/v1/leftpad/?str=test&len=10&chr=*'
//	{"str":"******test"}
//
// Every request is counted and timed to StatsD over UDP and logged (URL,
// client IP, user agent) to standard output or -log. The debug server of
// package collect (/debug/pprof/ and more) runs on its own port. SIGINT or
// SIGTERM stops the service gracefully and flushes the log.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/examples/leftpad"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	os.Exit(cli.ExitStatus("leftpad", err, os.Stderr))
}

// run is the whole command; it serves until ctx is done. A bad command
// line is a cli.FlagError or a cli.UsageError.
func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("leftpad", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "v2", "implementation: v1 (naive) or v2 (tuned)")
	addr := fs.String("addr", "127.0.0.1:8080", "serve the service on this address")
	debugAddr := fs.String("debug-addr", "127.0.0.1:6060", "serve /debug/pprof/ on this address; empty for none")
	statsdAddr := fs.String("statsd", "127.0.0.1:8125", "send StatsD metrics over UDP to this address; empty for none")
	logFile := fs.String("log", "", "append the request log to this file instead of standard output")
	if err := fs.Parse(args); err != nil {
		return cli.FlagError{Err: err}
	}
	v, err := leftpad.ParseVersion(*version)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("-version: %w", err)}
	}
	return serve(ctx, v, *addr, *debugAddr, *statsdAddr, *logFile, stdout, stderr)
}

func serve(ctx context.Context, v leftpad.Version, addr, debugAddr, statsdAddr, logFile string, stdout, stderr io.Writer) error {
	opts := leftpad.Options{Version: v, Log: stdout}
	if logFile != "" {
		f, err := os.OpenFile(logFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("-log: %w", err)
		}
		defer f.Close()
		opts.Log = f
	}
	if statsdAddr != "" {
		conn, err := net.Dial("udp", statsdAddr)
		if err != nil {
			return fmt.Errorf("-statsd=%s: %w", statsdAddr, err)
		}
		defer conn.Close()
		opts.StatsD = conn
	}
	if debugAddr != "" {
		debug, err := collect.Listen(debugAddr, collect.ServerOptions{})
		if err != nil {
			return fmt.Errorf("-debug-addr: %w", err)
		}
		defer debug.Close()
		fmt.Fprintf(stderr, "leftpad: debug server on http://%s/debug/pprof/\n", debug.Addr())
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	svc := leftpad.New(opts)
	fmt.Fprintf(stderr, "leftpad: %s serving http://%s/v1/leftpad/\n", v, ln.Addr())
	err = cli.Serve(ctx, ln, svc)
	return errors.Join(err, svc.Close())
}
