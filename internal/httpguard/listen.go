package httpguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Config is the connection rules of a server that Listen starts.
type Config struct {
	// Token is the token the handler's Policy requires, "" for none. A
	// non-loopback address is refused without one unless Public.
	Token string

	// Public serves a non-loopback address without a Token: anyone who
	// can reach it can use the server (perflab web -insecure_public).
	Public bool

	// MaxConns caps the open connections; 0 means DefaultMaxConns. When
	// all are taken, a new connection closes the one that has waited
	// longest outside a request (idle between requests, or still sending
	// its headers), once it has waited a quarter of a second; connections
	// running a request are kept, and while every one is, new connections
	// wait in the kernel's queue.
	MaxConns int

	// WriteTimeout bounds the time from the end of a request's headers to
	// the end of its answer; 0 means DefaultWriteTimeout. A handler may
	// set tighter deadlines of its own (http.ResponseController).
	WriteTimeout time.Duration
}

// The timeouts of every server Listen starts: a client has
// ReadHeaderTimeout to send its request's headers, ReadTimeout to send
// the whole request (an upload included) and IdleTimeout between requests
// on a kept-alive connection.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 30 * time.Second
	IdleTimeout       = 60 * time.Second
)

// DefaultMaxConns is how many connections a server keeps open unless
// Config.MaxConns says otherwise.
const DefaultMaxConns = 32

// DefaultWriteTimeout bounds an answer unless Config.WriteTimeout says
// otherwise.
const DefaultWriteTimeout = 10 * time.Minute

// ErrPublic is the error of Listen for a non-loopback address without a
// token or Config.Public.
var ErrPublic = errors.New("serving an address that is not loopback needs a token")

// A Server is a handler served on its own listener by Listen.
type Server struct {
	srv *http.Server
	ln  net.Listener
}

// Listen binds addr (HOST:PORT; an empty host means 127.0.0.1, port 0 a
// free port) with c's connection rules, for h, which should apply the
// request rules (Guard). Call Serve to serve.
func Listen(addr string, h http.Handler, c Config) (*Server, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !IsLoopback(host) && c.Token == "" && !c.Public {
		return nil, fmt.Errorf("address %q: %w", addr, ErrPublic)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, err
	}
	maxConns := c.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	write := c.WriteTimeout
	if write <= 0 {
		write = DefaultWriteTimeout
	}
	srv := &http.Server{
		Handler:           markBusy(h),
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      write,
		IdleTimeout:       IdleTimeout,
		ConnContext:       connContext,
	}
	return &Server{srv: srv, ln: newConnLimiter(ln, maxConns)}, nil
}

// Addr returns the address the server listens on, such as 127.0.0.1:6060.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL returns the server's base URL, such as http://127.0.0.1:6060.
func (s *Server) URL() string { return "http://" + s.Addr() }

// Serve serves until the server is closed; it then returns nil.
func (s *Server) Serve() error {
	if err := s.srv.Serve(s.ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ServeContext serves until ctx is done, then shuts the server down,
// giving the requests in progress two seconds to end.
func (s *Server) ServeContext(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- s.Serve() }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if s.srv.Shutdown(sctx) != nil {
		s.srv.Close()
	}
	return nil
}

// Close stops the server at once, ending requests in progress.
func (s *Server) Close() error {
	err := s.srv.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops the server after the requests in progress end or ctx
// is done.
func (s *Server) Shutdown(ctx context.Context) error { return s.srv.Shutdown(ctx) }
