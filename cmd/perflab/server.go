package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/httpguard"
	"github.com/perflab/perflab/scrape"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/stores"
)

var serverCmd = &command{
	name:     "server",
	summary:  "keep a fleet's profiles: scrape and receive them, answer queries",
	synopsis: `perflab server [-store STORE] [-http HOST:PORT] [-config FILE] [-scrape JOB=ADDR[,ADDR]]... [-token TOKEN] [-retention DUR]`,
	doc: `
Server keeps the profiles of a fleet of programs in a store and answers
queries about any range of time and set of labels. Profiles come in two
ways: scraped from the programs' /debug/pprof/ (net/http/pprof or package
collect's server), as -config's Prometheus-style jobs or -scrape's say;
and pushed to Grafana Pyroscope's ingest APIs (/ingest and
/push.v1.PusherService/Push), as pyroscope-go, Grafana Alloy and package
collect's push mode send them. Answers go out through Pyroscope's querier
API (/querier.v1.QuerierService/..., for Grafana's Pyroscope data source),
perflab's read API (/api/v1/..., which -store http://HOST:PORT of every
other command reads), the scrape targets' health at /targets, and the
viewer at / (every view of perflab web over any selection, a chart over
time, the diff of two selections). It prints "Serving perflab server on http://HOST:PORT" on standard error;
SIGINT or SIGTERM lets the requests in flight end, flushes the store and
exits 0. See docs/server.md and docs/ingest.md.
`,
	examples: `
perflab server -scrape api=127.0.0.1:6060,127.0.0.1:6061
perflab server -store /var/lib/perflab -config scrape.yaml -retention 30d
PERFLAB_TOKEN=s3cret perflab server -http 0.0.0.0:4040
`,
	run: runServer,
}

// The defaults of perflab server.
const (
	defaultStoreDir   = "./perflab-data"
	defaultServerAddr = "127.0.0.1:4040"
	defaultRetention  = "14d"
)

// serverFlags are perflab server's flags, once checked.
type serverFlags struct {
	spec, addr, token string
	anyHost           bool
	retention         time.Duration
	scrape            scrape.Config
}

func runServer(ctx context.Context, _ io.Reader, _, stderr io.Writer, args []string) error {
	f, err := parseServerFlags(args)
	if err != nil {
		return err
	}
	st, err := stores.Open(ctx, f.spec, stores.Options{Log: stderr})
	if err != nil {
		return err
	}
	o := fleet.Options{Store: st, Scrape: f.scrape, Token: f.token, AnyHost: f.anyHost, Retention: f.retention, Log: stderr}
	if _, ok := stores.HealthOf(st); ok {
		o.StoreHealth = func() (int64, error) {
			h, _ := stores.HealthOf(st)
			return h.PendingBytes, h.Err
		}
	}
	srv, err := fleet.New(o)
	if err == nil {
		err = serve(ctx, srv, f.addr, stderr)
	}
	if cerr := st.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the store %s: %w", f.spec, cerr)
	}
	return err
}

// serve listens on addr and serves srv until ctx is done.
func serve(ctx context.Context, srv *fleet.Server, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-http %s: %w", addr, err)
	}
	fmt.Fprintf(stderr, "Serving perflab server on http://%s\n", ln.Addr())
	return srv.Serve(ctx, ln)
}

// parseServerFlags parses and checks perflab server's flags: its errors
// are usage errors.
func parseServerFlags(args []string) (serverFlags, error) {
	fs := newFlagSet("server")
	var f serverFlags
	var config, retention string
	var specs stringList
	fs.StringVar(&f.spec, "store", "", "keep the profiles in `STORE`: a directory (created if missing) or a clickhouse:// URL (default $"+storeEnv+", else "+defaultStoreDir+")")
	fs.StringVar(&f.addr, "http", defaultServerAddr, "listen on `HOST:PORT`, Pyroscope's port by default; a host that is not loopback needs -token")
	fs.StringVar(&config, "config", "", "scrape the jobs of `FILE`, Prometheus-style scrape_configs (docs/ingest.md)")
	fs.Var(&specs, "scrape", "scrape the programs at each ADDR (host:port or a URL) as the job JOB, every 15 s: `JOB=ADDR[,ADDR]` (repeatable)")
	fs.StringVar(&f.token, "token", "", "require `TOKEN` of every request, as a bearer token or as Basic authentication's password (default $"+tokenEnv+", which ps does not show)")
	fs.StringVar(&retention, "retention", defaultRetention, "drop the profiles older than `DUR`, such as 36h, 14d or 2w; 0 keeps them forever")
	if err := parseFlags(fs, args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, usageErrorf("unexpected argument %q: perflab server takes flags only", fs.Arg(0))
	}
	f.spec = cmp.Or(f.spec, os.Getenv(storeEnv), defaultStoreDir)
	f.token = cmp.Or(f.token, os.Getenv(tokenEnv))
	var err error
	if f.addr, f.anyHost, err = serverAddr(f.addr, f.token); err != nil {
		return f, err
	}
	if f.retention, err = store.ParseDuration(retention); err != nil {
		return f, usageErrorf("-retention: %v", err)
	}
	if config != "" {
		if f.scrape, err = scrape.ReadConfig(config); err != nil {
			return f, usageErrorf("-config: %v", err)
		}
	}
	for _, s := range specs {
		job, err := scrape.ParseSpec(s)
		if err == nil {
			err = f.scrape.Add(job)
		}
		if err != nil {
			return f, usageErrorf("%v", err)
		}
	}
	return f, nil
}

// serverAddr checks -http: HOST:PORT, an empty host meaning 127.0.0.1. An
// address that is not loopback needs a token, and turns the Host check
// off (anyHost).
func serverAddr(addr, token string) (string, bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, usageErrorf("-http %q: want HOST:PORT", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	loopback := httpguard.IsLoopback(host)
	if !loopback && token == "" {
		return "", false, usageErrorf("-http %s: %v: give -token (or $%s), which every client then sends; "+
			"without it anyone who can reach the address could push profiles and read every profile of the fleet",
			addr, errPublic, tokenEnv)
	}
	return net.JoinHostPort(host, port), !loopback, nil
}

var errPublic = errors.New("an address that is not loopback needs a token")
