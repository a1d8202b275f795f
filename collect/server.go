package collect

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/perflab/perflab/internal/httpguard"
)

// ServerOptions configure Handler and ListenAndServe. The zero value is a
// safe default: no token (so bind to loopback, as ListenAndServe does),
// command line hidden, profiles and traces of at most a minute, no flight
// recorder.
type ServerOptions struct {
	// Token, if not empty, is required in every request as the header
	// "Authorization: Bearer <Token>" (the scheme in any case); it is
	// compared in constant time.
	Token string

	// Cmdline serves the program's arguments at /debug/pprof/cmdline and
	// in /debug/vars; by default they are withheld, since command lines
	// often carry secrets.
	Cmdline bool

	// MaxDuration bounds the seconds parameter of a CPU profile, a trace or
	// a wall-clock profile; 0 means DefaultMaxDuration.
	MaxDuration time.Duration

	// FlightRecorder, if positive, keeps a flight recorder running
	// (runtime/trace.FlightRecorder) holding at least this much recent
	// execution trace, served at /debug/pprof/flightrecorder. Only one
	// flight recorder can run in a process: the first Handler to ask
	// starts it, later ones share it.
	FlightRecorder time.Duration

	// FlightRecorderBytes caps the flight recorder's window (a hint to
	// the runtime); 0 means the runtime's default.
	FlightRecorderBytes uint64

	// Prefix is the path the handler's tree lives under; "" means
	// "/debug", giving /debug/pprof/, /debug/vars and /debug/metrics.
	Prefix string

	// MaxConcurrent is how many requests for the same profile (heap,
	// goroutine, allocs, block, mutex, threadcreate, or the growth of one
	// over seconds) run at once; 0 means 1. A further request waits up to
	// half a second for one to end, then gets 429 Too Many Requests with
	// Retry-After. CPU profiles, traces, wall-clock
	// profiles and flight-recorder snapshots run one at a time whatever
	// this says.
	MaxConcurrent int

	// MaxConns caps the connections Listen and ListenAndServe keep open;
	// 0 means DefaultMaxConns. When all are taken, a new connection
	// closes the one that has waited longest outside a request (idle
	// between requests, or still sending its headers); connections
	// running a request are kept, and when every one is, new connections
	// wait in the kernel's queue until one ends.
	MaxConns int

	// MaxTraceBacklog bounds the execution trace a served trace lets pile
	// up in the program while its client reads more slowly than the
	// runtime writes; 0 means DefaultMaxTraceBacklog. Beyond it the trace
	// is stopped and the answer ends early, cleanly, with the generation
	// being sent (generations last about a second), so that the program's
	// memory does not grow with the trace's length: the client gets a
	// shorter trace of whole generations, which readers read to its end.
	// The rest of that generation is kept on the heap until it is sent;
	// past twice MaxTraceBacklog it is sent as it comes, the trace's
	// reader waiting for the client while the runtime holds what it has
	// not read, so the answer is never cut inside a generation. The first
	// generation, without which nothing can be read, is held on the heap
	// until it ends and sent whole; if it passes twice MaxTraceBacklog
	// first, the trace is refused with 503.
	MaxTraceBacklog int64
}

// DefaultMaxTraceBacklog is how much unsent trace a served trace may hold
// in the program unless ServerOptions.MaxTraceBacklog says otherwise.
const DefaultMaxTraceBacklog = 64 << 20

// DefaultMaxConns is how many connections Listen and ListenAndServe keep
// open unless ServerOptions.MaxConns says otherwise.
const DefaultMaxConns = httpguard.DefaultMaxConns

// DefaultMaxDuration is the longest CPU profile or trace a Handler serves
// unless ServerOptions.MaxDuration says otherwise.
const DefaultMaxDuration = 60 * time.Second

func (o ServerOptions) maxDuration() time.Duration {
	if o.MaxDuration > 0 {
		return o.MaxDuration
	}
	return DefaultMaxDuration
}

func (o ServerOptions) maxConcurrent() int { return max(o.MaxConcurrent, 1) }

func (o ServerOptions) maxTraceBacklog() uint64 {
	if o.MaxTraceBacklog > 0 {
		return uint64(o.MaxTraceBacklog)
	}
	return DefaultMaxTraceBacklog
}

func (o ServerOptions) maxConns() int {
	if o.MaxConns > 0 {
		return o.MaxConns
	}
	return DefaultMaxConns
}

func (o ServerOptions) prefix() string {
	if o.Prefix == "" {
		return "/debug"
	}
	return strings.TrimSuffix(o.Prefix, "/")
}

// ListenAndServe serves Handler(opts) on its own listener at addr until
// the listener fails. An empty host in addr (":6060") means 127.0.0.1,
// not every interface; give an explicit host such as "0.0.0.0:6060" to
// serve others, preferably with a Token. On a loopback address, requests
// whose Host header is not a loopback name (localhost, 127.0.0.1, ::1)
// are refused with 403, so web pages cannot reach the server through DNS
// rebinding.
//
// The server bounds what clients can hold: each has 10 s to send its
// request's headers and 30 s for the whole request, a kept-alive
// connection closes after 60 s idle, each chunk of an answer must be
// taken within 10 s and the whole answer within the seconds it records
// plus 30 s, refused requests (401, 403) close their connection, and at
// most ServerOptions.MaxConns connections are open (these are the rules of
// every perflab server, internal/httpguard).
func ListenAndServe(addr string, opts ServerOptions) error {
	s, err := listen(addr, opts)
	if err != nil {
		return err
	}
	return s.srv.Serve()
}

// A Server is a Handler running on its own listener, started by Listen.
type Server struct {
	srv *httpguard.Server
}

// Listen binds addr as ListenAndServe does and serves Handler(opts) in the
// background until Close. Use port 0 for any free port and Addr to learn
// which.
func Listen(addr string, opts ServerOptions) (*Server, error) {
	s, err := listen(addr, opts)
	if err != nil {
		return nil, err
	}
	go s.srv.Serve()
	return s, nil
}

func listen(addr string, opts ServerOptions) (*Server, error) {
	h := newHandler(opts)
	g := httpguard.Guard(h, httpguard.Policy{Token: opts.Token, AnyHost: !httpguard.LoopbackAddr(addr), Realm: "debug"})
	// A debug server may serve others without a token, as it always has
	// (the user chose the address); the documentation urges a token.
	srv, err := httpguard.Listen(addr, g, httpguard.Config{Token: opts.Token, Public: true,
		MaxConns: opts.maxConns(), WriteTimeout: opts.maxDuration() + writeGrace})
	if err != nil {
		return nil, fmt.Errorf("collect: debug server: %w", err)
	}
	return &Server{srv: srv}, nil
}

// Addr returns the address the server listens on, such as 127.0.0.1:6060.
func (s *Server) Addr() string { return s.srv.Addr() }

// Close stops the server at once, ending requests in progress.
func (s *Server) Close() error { return s.srv.Close() }

// Shutdown stops the server after the requests in progress end or ctx
// is done.
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }

// Handler returns the debug tree under opts.Prefix (default /debug):
//
//	/debug/pprof/                  index of profiles
//	/debug/pprof/profile?seconds=N CPU profile (default 30 s)
//	/debug/pprof/trace?seconds=N   execution trace (default 1 s)
//	/debug/pprof/wall?seconds=N    wall-clock profile (default 30 s)
//	/debug/pprof/flightrecorder    the last seconds of execution trace
//	/debug/pprof/NAME?debug=N      heap (gc=1 collects first), allocs,
//	                               goroutine, block, mutex, threadcreate
//	/debug/pprof/symbol            address to function name, for pprof
//	/debug/pprof/cmdline           the command line, if opts.Cmdline
//	/debug/vars                    expvar's variables
//	/debug/metrics                 runtime/metrics as JSON
//
// The handler answers with net/http/pprof's formats, so go tool pprof and
// perflab read it alike. Requests a browser sends on behalf of another
// site (Sec-Fetch-Site other than same-origin or none, or an Origin
// header that is not the server's) are refused with 403, so a web page
// cannot make its visitor's browser profile a program without a token.
// Mount it at its prefix on any router:
// mux.Handle("/debug/", collect.Handler(opts)). Importing collect imports
// expvar, which registers /debug/vars on http.DefaultServeMux; do not serve
// DefaultServeMux to untrusted clients.
func Handler(opts ServerOptions) http.Handler {
	return httpguard.Guard(newHandler(opts), httpguard.Policy{Token: opts.Token, AnyHost: true, Realm: "debug"})
}

func newHandler(opts ServerOptions) *handler {
	h := &handler{
		opts:   opts,
		prefix: opts.prefix(),
	}
	if opts.FlightRecorder > 0 {
		h.flight, h.flightErr = startFlightRecorder(opts.FlightRecorder, opts.FlightRecorderBytes)
	}
	return h
}

// handler serves the debug tree, behind httpguard's checks. Its slots
// bound the expensive requests running at once.
type handler struct {
	opts      ServerOptions
	prefix    string
	slots     slots
	flight    *flightRecorder
	flightErr error
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, h.prefix+"/")
	if !ok {
		httpError(w, http.StatusNotFound, "not found")
		return
	}
	switch {
	case rest == "vars":
		h.serveVars(w, r)
	case rest == "metrics":
		serveMetrics(w, r)
	case rest == "pprof":
		http.Redirect(w, r, h.prefix+"/pprof/", http.StatusMovedPermanently)
	case strings.HasPrefix(rest, "pprof/"):
		h.servePprof(w, r, strings.TrimPrefix(rest, "pprof/"))
	default:
		httpError(w, http.StatusNotFound, "not found")
	}
}

// httpError answers with a status and a one-line plain-text message.
func httpError(w http.ResponseWriter, status int, msg string) { httpguard.Error(w, status, msg) }

// plainText marks an answer as plain text that browsers must not sniff.
func plainText(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
}
