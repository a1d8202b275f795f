package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
	"github.com/perflab/perflab/internal/term"
	rpt "github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
	"github.com/perflab/perflab/web"
)

var weblistCmd = &command{
	name:     "weblist",
	summary:  "annotated source with assembly in the browser, as pprof -weblist",
	synopsis: `perflab weblist [flags] [-http=HOST:PORT] [-no_browser] REGEX [BINARY] SOURCE...`,
	doc: `
Serves the web UI (as perflab web) and opens its source view of the
functions matching REGEX, as 'go tool pprof -weblist=REGEX' does: every
line of the functions with its flat and cum values; a click on a line
shows its instructions, each with its own values, and the calls inlined
on it. Each sample counts once per line and once per function, however
deep a recursive function recurs, so no figure exceeds 100% of the
total. The "compiler notes" box builds the functions' packages and shows
the compiler's escape, inlining and bounds-check decisions on each line.

The binary is BINARY if given (a first argument after REGEX that is an
executable), else found as perflab disasm finds it; without it the lines
have no instructions and the page says why. Prints "Serving web UI on
URL" on stderr and serves until interrupted. See docs/web.md.
`,
	examples: `
perflab weblist 'main\.fib' cpu.pprof
perflab weblist -no_browser 'havlak\.DFS' ./havlak cpu.pprof
`,
	run: runWeblist,
}

func runWeblist(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("weblist")
	rf := addReportFlags(fs, rpt.Kind("web"))
	wf := addWebFlags(fs)
	rest, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	regex, rest, err := regexAndSources(rest)
	if err != nil {
		return err
	}
	if _, err := regexp.Compile(regex); err != nil {
		return usageErrorf("REGEX %q: %w", regex, err)
	}
	var binary string
	if len(rest) > 1 && disasm.IsObjectFile(rest[0]) {
		binary, rest = rest[0], rest[1:]
	}
	if len(rest) == 0 {
		return usageErrorf("no profile given")
	}
	ws, err := wf.serve(stdin, stderr, rf.src)
	if err != nil {
		return err
	}
	p, o, err := rf.load(ctx, stdin, stderr, rest)
	if err != nil {
		return err
	}
	sv := &sourceViewer{p: p, o: o, binary: binary, title: strings.Join(rest, " "), ws: ws}
	u, err := sv.open(ctx, regex)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "Source view: %s\n", u)
	if !ws.noBrowser {
		openBrowser(ws.loginURL(u))
	}
	return sv.wait()
}

// A sourceViewer serves a profile's web UI on first use and gives the URL
// of its source view: perflab weblist and the shell's weblist.
type sourceViewer struct {
	p             *profile.Profile // not changed once served
	o             rpt.Options
	binary, title string
	ws            webServe // where and how to serve
	srv           *web.Server
	base          string     // http://HOST:PORT, once listening
	done          chan error // the server's end, once listening
	cancelServe   func()
}

// open checks that regex lists something, starts the server if it is
// not running, and returns the source view's URL. Not safe for
// concurrent use.
func (sv *sourceViewer) open(ctx context.Context, regex string) (string, error) {
	if err := sv.newServer(); err != nil {
		return "", err
	}
	q := url.Values{}
	settings.EncodeURL(&sv.o, q)
	q.Set("f", regex)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/ui/api/source?"+q.Encode(), nil)
	if sv.ws.token != "" {
		req.Header.Set("Authorization", "Bearer "+sv.ws.token)
	}
	sv.srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return "", errors.New(strings.TrimSpace(strings.TrimPrefix(rec.Body.String(), "source: ")))
	}
	if sv.done == nil {
		if err := sv.listen(ctx); err != nil {
			return "", err
		}
	}
	return sv.base + "/ui/source?" + q.Encode(), nil
}

// openGraph starts the server if it is not running and returns the URL
// of its call graph with the options o. Not safe for concurrent use.
func (sv *sourceViewer) openGraph(ctx context.Context, o rpt.Options) (string, error) {
	if err := sv.newServer(); err != nil {
		return "", err
	}
	if sv.done == nil {
		if err := sv.listen(ctx); err != nil {
			return "", err
		}
	}
	q := url.Values{}
	settings.EncodeURL(&o, q)
	return sv.base + "/ui/graph?" + q.Encode(), nil
}

// newServer makes the viewer's server, once.
func (sv *sourceViewer) newServer() error {
	if sv.srv != nil {
		return nil
	}
	srv, err := web.New(sv.p, web.Options{Report: sv.o, Title: sv.title, AnyHost: sv.ws.anyHost(), Token: sv.ws.token, Binary: sv.binary})
	sv.srv = srv
	return err
}

// listen serves sv.srv until ctx is done or close is called.
func (sv *sourceViewer) listen(ctx context.Context) error {
	srv, err := listenWeb(sv.srv, sv.ws)
	if err != nil {
		return err
	}
	sv.base = srv.URL()
	sctx, cancel := context.WithCancel(ctx)
	sv.cancelServe, sv.done = cancel, make(chan error, 1)
	go func() { sv.done <- srv.ServeContext(sctx) }()
	return nil
}

// wait serves until the context given to open is done.
func (sv *sourceViewer) wait() error {
	return <-sv.done
}

// close stops the server, if it was started.
func (sv *sourceViewer) close() {
	if sv.done != nil {
		sv.cancelServe()
		<-sv.done
	}
}

// shellViews are the shell's weblist and web: the first use serves the
// profile's web UI on a free loopback port; each use prints the view's
// URL and, when the shell reads a terminal, opens it in a browser. stop
// ends the server.
func shellViews(ctx context.Context, p *profile.Profile, o rpt.Options, stdin io.Reader, stderr io.Writer) (source func(string) (string, error), graph func(rpt.Options) (string, error), stop func()) {
	sv := &sourceViewer{p: p, o: o, title: "shell", ws: webServe{addr: "127.0.0.1:0", host: "127.0.0.1", port: "0", stderr: stderr}}
	f, interactive := stdin.(*os.File)
	interactive = interactive && term.IsTTY(f)
	show := func(u string, err error) (string, error) {
		if err == nil && interactive {
			openBrowser(u)
		}
		return u, err
	}
	source = func(regex string) (string, error) { return show(sv.open(ctx, regex)) }
	graph = func(o rpt.Options) (string, error) { return show(sv.openGraph(ctx, o)) }
	return source, graph, sv.close
}
