package main

import (
	"context"
	"io"
	"os/exec"
	"runtime"
	"strings"

	rpt "github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

var webCmd = &command{
	name:     "web",
	summary:  "browse a profile: flame graph, sandwich, diff, graph, top, source",
	synopsis: `perflab web [flags] [-http=HOST:PORT] [-no_browser] SOURCE...`,
	doc: `
Serves the profile viewer, as 'go tool pprof -http' does, at pprof's paths
(/ui/flamegraph, /ui/top, /ui/graph, /ui/peek, /ui/source, plus
/ui/sandwich) with pprof's URL parameters, and opens a browser unless
-no_browser. The sources are loaded once, before anything is served; the
report flags are the pages' initial settings. With -diff_base, or a base
profile chosen in the page's menu (uploaded, at most -max_bytes), the
flame graph is red/blue. See docs/web.md.

When the one SOURCE is an execution trace, it serves a timeline of it
(/ui/timeline: per-P lanes, GC and stop-the-world bands, zoom, click for a
stack; /ui/trace: the summary); when it is a goroutine dump in text, the
groups of its goroutines (/ui/goroutines; with -base OLD, the leaks).
`,
	examples: `
perflab web cpu.pprof
perflab web -http=127.0.0.1:8080 -no_browser -focus=main.run cpu.pprof
PERFLAB_HTTP_TOKEN=s3cret perflab web -http=0.0.0.0:8080 cpu.pprof
perflab web -diff_base=old.pprof new.pprof
perflab web trace.out
perflab web -base dump-before.txt dump-after.txt
`,
	run: runWeb,
}

func runWeb(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) error {
	fs := newFlagSet("web")
	rf := addReportFlags(fs, rpt.Kind("web"))
	wf := addWebFlags(fs)
	sources, err := parseFlagsAnywhere(fs, args)
	if err != nil {
		return err
	}
	if len(sources) == 0 {
		return usageErrorf("no profile given")
	}
	ws, err := wf.serve(stdin, stderr, rf.src)
	if err != nil {
		return err
	}
	if done, err := runWebSpecial(ctx, sources, ws); done { // a trace or a goroutine dump
		return err
	}
	p, o, err := rf.load(ctx, stdin, stderr, sources)
	if err != nil {
		return err
	}
	srv, err := web.New(p, web.Options{Report: o, Title: strings.Join(sources, " "), AnyHost: ws.anyHost(), Token: ws.token, MaxBytes: rf.src.maxBytes,
		BaseName: rf.src.baseNames()})
	if err != nil {
		return err
	}
	return serveWebHandler(ctx, srv, "/ui/", ws)
}

// openBrowser opens u in the desktop's browser, best effort: a machine
// without one still serves.
func openBrowser(u string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	if cmd.Start() == nil {
		go cmd.Wait()
	}
}
