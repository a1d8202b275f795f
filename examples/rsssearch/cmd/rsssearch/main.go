// Command rsssearch runs the RSS search service of the Ultimate Go
// article on profiling, with its own feed server on loopback:
//
//	rsssearch [-variant=naive|tuned] [-addr=127.0.0.1:5000] [-debug-addr=127.0.0.1:6060] [-feeds=URL]
//	curl -X POST 'http://127.0.0.1:5000/search?term=covid-19&cnn=on&bbc=on&nyt=on'
//
// Without -feeds it serves the generated feeds itself on a free loopback
// port. The debug server of package collect (/debug/pprof/ and more) runs
// on its own port. SIGINT or SIGTERM stops the service gracefully.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/examples/rsssearch"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := rsssearch.Command(ctx, os.Stderr, os.Args[1:])
	stop()
	os.Exit(cli.ExitStatus("rsssearch", err, os.Stderr))
}
