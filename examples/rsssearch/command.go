package rsssearch

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/examples/internal/cli"
)

// Command is the rsssearch command (cmd/rsssearch, and the server perflab
// demo rsssearch runs): it parses args and serves until ctx is done. A bad
// command line is a cli.FlagError or a cli.UsageError.

func Command(ctx context.Context, stderr io.Writer, args []string) error {
	fs := flag.NewFlagSet("rsssearch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	variant := fs.String("variant", "naive", "search code: naive (the article's) or tuned")
	addr := fs.String("addr", "127.0.0.1:5000", "serve the service on this address")
	debugAddr := fs.String("debug-addr", "127.0.0.1:6060", "serve /debug/pprof/ on this address; empty for none")
	feeds := fs.String("feeds", "", "URL of the feed server; empty to serve the generated feeds on a free loopback port")
	expiry := fs.Duration("expiry", DefaultExpiry, "how long a fetched feed stays cached")
	var fo FeedOptions
	fs.IntVar(&fo.Items, "items", DefaultItems, "items per generated feed")
	fs.IntVar(&fo.Words, "words", DefaultWords, "words per generated description")
	if err := fs.Parse(args); err != nil {
		return cli.FlagError{Err: err}
	}
	if fs.NArg() > 0 {
		return cli.UsageError{Err: fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	v, err := ParseVariant(*variant)
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("-variant: %w", err)}
	}
	if *feeds == "" {
		srv, err := serveFeeds(fo)
		if err != nil {
			return err
		}
		defer srv.Close()
		*feeds = "http://" + srv.Addr
		fmt.Fprintf(stderr, "rsssearch: feeds on %s\n", *feeds)
	}
	if *debugAddr != "" {
		debug, err := collect.Listen(*debugAddr, collect.ServerOptions{})
		if err != nil {
			return fmt.Errorf("-debug-addr: %w", err)
		}
		defer debug.Close()
		fmt.Fprintf(stderr, "rsssearch: debug server on http://%s/debug/pprof/\n", debug.Addr())
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	svc := New(Options{Variant: v, FeedsURL: *feeds, Expiry: *expiry})
	return serve(ctx, stderr, ln, svc, v)
}

func serveFeeds(fo FeedOptions) (*http.Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("feed server: %w", err)
	}
	srv := &http.Server{Addr: ln.Addr().String(), Handler: NewFeedServer(fo), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return srv, nil
}

func serve(ctx context.Context, stderr io.Writer, ln net.Listener, svc http.Handler, v Variant) error {
	fmt.Fprintf(stderr, "rsssearch: %s serving http://%s/search\n", v, ln.Addr())
	return cli.Serve(ctx, ln, svc)
}
