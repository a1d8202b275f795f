package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"

	"github.com/perflab/perflab/internal/httpguard"
)

// httpTokenEnv names the environment variable -http_token defaults to.
// It is not PERFLAB_TOKEN, which -token sends to URL sources: the token
// of a shared viewer must not open the debug servers the profiles came
// from.
const httpTokenEnv = "PERFLAB_HTTP_TOKEN"

// webFlags are the flags of the commands that serve the viewer (web,
// weblist): where, with which token, and whether to open a browser.
type webFlags struct {
	addr, token       string
	public, noBrowser bool
}

func addWebFlags(fs *flag.FlagSet) *webFlags {
	wf := &webFlags{}
	fs.StringVar(&wf.addr, "http", "", "where to listen, `HOST:PORT` (default 127.0.0.1 on a free port); a host that is not loopback needs -http_token or -insecure_public")
	fs.StringVar(&wf.token, "http_token", "", "require `TOKEN` of every request: a browser opens the printed URL with ?token=TOKEN once, programs send \"Authorization: Bearer TOKEN\" (default $"+httpTokenEnv+", which ps does not show)")
	fs.BoolVar(&wf.public, "insecure_public", false, "serve a non-loopback -http without a token")
	fs.BoolVar(&wf.noBrowser, "no_browser", false, "do not open a browser")
	return wf
}

// webServe is how the viewer is served: where, with which token, and
// whether to open a browser.
type webServe struct {
	addr, host, port string
	token            string
	public           bool
	noBrowser        bool
	stdin            io.Reader
	stderr           io.Writer
	src              *sourceFlags
}

// serve checks the flags: a non-loopback -http needs a token or
// -insecure_public.
func (wf *webFlags) serve(stdin io.Reader, stderr io.Writer, src *sourceFlags) (webServe, error) {
	host, port, err := splitHTTP(wf.addr)
	if err != nil {
		return webServe{}, err
	}
	token := wf.token
	if token == "" {
		token = os.Getenv(httpTokenEnv)
	}
	ws := webServe{addr: wf.addr, host: host, port: port, token: token, public: wf.public,
		noBrowser: wf.noBrowser, stdin: stdin, stderr: stderr, src: src}
	if ws.anyHost() && token == "" && !wf.public {
		return ws, usageErrorf("-http %s is not a loopback address: require a token of its clients (-http_token, or $%s), or serve everyone who can reach it with -insecure_public", wf.addr, httpTokenEnv)
	}
	return ws, nil
}

// anyHost reports whether the address is not loopback: then the server
// answers any Host name, and the token protects it.
func (ws webServe) anyHost() bool { return !httpguard.LoopbackAddr(net.JoinHostPort(ws.host, ws.port)) }

// serveWebHandler listens on ws's address, opens path in a browser unless
// -no_browser, and serves h until ctx is done.
func serveWebHandler(ctx context.Context, h http.Handler, path string, ws webServe) error {
	srv, err := listenWeb(h, ws)
	if err != nil {
		return err
	}
	if !ws.noBrowser {
		openBrowser(ws.loginURL(srv.URL() + path))
	}
	return srv.ServeContext(ctx)
}

// listenWeb binds ws's address for h with the connection rules of every
// perflab server (internal/httpguard: timeouts, a connection cap), warns
// what an -insecure_public address exposes, and prints pprof's "Serving
// web UI on" line.
func listenWeb(h http.Handler, ws webServe) (*httpguard.Server, error) {
	srv, err := httpguard.Listen(net.JoinHostPort(ws.host, ws.port), h, httpguard.Config{Token: ws.token, Public: ws.public})
	if err != nil {
		return nil, fmt.Errorf("-http %s: %w", ws.addr, err)
	}
	if ws.anyHost() && ws.token == "" {
		fmt.Fprintf(ws.stderr, "warning: -http %s -insecure_public: anyone who can reach this address can read the profile and every source file and binary it names, "+
			"and upload profiles; and since it answers any Host name, a web page opened on this machine can reach it by DNS rebinding and make it run compiler builds (the source view's notes)\n", ws.addr)
	}
	fmt.Fprintf(ws.stderr, "Serving web UI on %s\n", srv.URL())
	if ws.token != "" {
		fmt.Fprintf(ws.stderr, "It requires its token: open %s/?%s=TOKEN once in a browser, or send \"Authorization: Bearer TOKEN\"\n", srv.URL(), httpguard.TokenParam)
	}
	return srv, nil
}

// loginURL adds the token to u, for the browser perflab opens itself: the
// server answers with a cookie and the same URL without it.
func (ws webServe) loginURL(u string) string {
	if ws.token == "" {
		return u
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := parsed.Query()
	q.Set(httpguard.TokenParam, ws.token)
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

// splitHTTP reads -http: HOST:PORT, where an empty host means 127.0.0.1
// and an empty port a free one.
func splitHTTP(addr string) (host, port string, err error) {
	if addr == "" {
		return "127.0.0.1", "0", nil
	}
	host, port, err = net.SplitHostPort(addr)
	if err != nil {
		return "", "", usageErrorf("-http %q: want HOST:PORT", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "0"
	}
	return host, port, nil
}
