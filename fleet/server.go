package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/perflab/perflab/ingest"
	"github.com/perflab/perflab/querier"
	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/scrape"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/viewer"
)

// Options configure a Server.
type Options struct {
	// Store keeps the profiles: pushes and scrapes are written to it, and
	// every query is answered from it. The caller opens it, and closes it
	// once Serve has returned.
	Store store.Store
	// Scrape lists the jobs to scrape; none without jobs.
	Scrape scrape.Config
	// ScrapeOptions and Ingest bound the scraper and the push handlers.
	ScrapeOptions scrape.Options
	Ingest        ingest.Options
	// Query bounds the Pyroscope querier API's answers.
	Query querier.Options
	// Token, if not "", must come with every request (see guard).
	Token string
	// AnyHost turns off the Host check, for a server that listens on an
	// address that is not loopback (which needs a Token). Leave it false
	// on loopback: a request whose Host header is not a loopback name then
	// gets 403, which defeats DNS rebinding.
	AnyHost bool
	// Retention is how long profiles are kept: every RetentionEvery (and
	// when Serve starts), the profiles older than Retention are dropped.
	// 0 keeps them forever.
	Retention time.Duration
	// RetentionEvery is how often retention runs; 0 means an hour, or
	// Retention/10 if that is shorter.
	RetentionEvery time.Duration
	// StoreHealth, if not nil, tells how the store's writes go: the bytes
	// taken but not yet in its backend, and why the last write to it
	// failed (see stores.HealthOf). /targets shows it beside the scrape
	// targets, and the viewer's page says so when writes fail.
	StoreHealth func() (pendingBytes int64, err error)
	// ViewerCacheBytes bounds the views the viewer keeps (see
	// viewer.Options.CacheBytes); 0 means viewer.DefaultCacheBytes.
	ViewerCacheBytes int64
	// Log, if not nil, is told of the problems that no request answers
	// (a scrape target file that cannot be read, retention failing), one
	// line each.
	Log io.Writer
	// Now returns the time; nil means time.Now.
	Now func() time.Time
}

// A Server is perflab server's HTTP side: it serves the push APIs
// (package ingest), Pyroscope's querier API (package querier), perflab's
// read API (package remote), the scrape targets' health, and the viewer
// (package viewer), all behind one guard; and Serve runs the scraper and retention.
type Server struct {
	opts    Options
	scraper *scrape.Scraper
	ingest  *ingest.Handler
	viewer  *viewer.Handler
	handler http.Handler
}

var _ http.Handler = (*Server)(nil)

// New returns a Server of o.
func New(o Options) (*Server, error) {
	if o.Store == nil {
		return nil, errors.New("fleet: no store")
	}
	if o.Retention < 0 {
		return nil, fmt.Errorf("fleet: retention %v: want a positive duration, or 0 to keep everything", o.Retention)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RetentionEvery <= 0 {
		o.RetentionEvery = time.Hour
		if r := o.Retention / 10; r > 0 && r < o.RetentionEvery {
			o.RetentionEvery = r
		}
	}
	s := &Server{opts: o}
	s.scraper = scrape.New(o.Store, o.Scrape, o.withLog(o.ScrapeOptions))
	s.ingest = ingest.NewHandler(o.Store, o.Ingest)
	s.viewer = viewer.New(o.Store, viewer.Options{CacheBytes: o.ViewerCacheBytes, StoreError: s.storeError, Now: o.Now})
	s.handler = guard(s.routes(), o.Token, o.AnyHost)
	return s, nil
}

func (o Options) withLog(so scrape.Options) scrape.Options {
	if so.Log == nil {
		so.Log = o.Log
	}
	return so
}

// The paths a Server serves besides the APIs' own.
const (
	// PathTargets is the scrape targets' health, as JSON.
	PathTargets = "/targets"
	// PathUI is where the viewer's views are (package viewer); its own
	// page is at /.
	PathUI = "/ui/"
)

// routes returns the Server's routes, before the guard.
func (s *Server) routes() http.Handler {
	m := http.NewServeMux()
	m.Handle(ingest.PathIngest, s.ingest)
	m.Handle(ingest.PathPush, s.ingest)
	m.Handle(querier.New(s.opts.Store, s.opts.Query).Handler())
	m.Handle(remote.Prefix, remote.NewHandler(s.opts.Store))
	m.HandleFunc("GET "+PathTargets, s.targets)
	m.Handle("GET /{$}", s.viewer)
	m.Handle(PathUI, s.viewer)
	m.Handle("/download", s.viewer)
	return m
}

// ServeHTTP answers r, after the guard's checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Targets returns the scrape targets' health.
func (s *Server) Targets() []scrape.Health { return s.scraper.Targets() }

// Serve serves on ln, scrapes and applies retention until ctx is done;
// it then stops taking requests, lets those in flight end (a push that
// was taken is written or refused, never lost half way), waits for the
// scrapes in flight, and returns nil. It returns an error if ln fails.
// The caller then closes the store, which flushes it.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      10 * time.Minute,
		IdleTimeout:       time.Minute,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	bg, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { s.scraper.Run(bg) })
	wg.Go(func() { s.retain(bg) })
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	var err error
	select {
	case err = <-errc:
	case <-ctx.Done():
		shut, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		if srv.Shutdown(shut) != nil {
			srv.Close()
		}
		cancel()
		err = <-errc
	}
	stop()
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// shutdownGrace is how long the requests in flight have to end when
// Serve stops.
const shutdownGrace = 10 * time.Second

// retain drops the profiles older than the retention period at once and
// every RetentionEvery until ctx is done.
func (s *Server) retain(ctx context.Context) {
	if s.opts.Retention <= 0 {
		return
	}
	tick := time.NewTicker(s.opts.RetentionEvery)
	defer tick.Stop()
	for {
		if err := s.opts.Store.DropBefore(ctx, s.opts.Now().Add(-s.opts.Retention)); err != nil && ctx.Err() == nil {
			s.logf("retention: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "perflab server: "+format+"\n", args...)
	}
}
