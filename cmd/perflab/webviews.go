package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/web"
)

// A webSource is what perflab web serves when its source is not a
// profile: an execution trace (a timeline) or a goroutine dump (groups).
type webSource int

const (
	webProfile webSource = iota
	webTrace
	webDump
)

var (
	webTraceHeader = regexp.MustCompile(`^go 1\.[0-9]+ trace\x00\x00\x00`)
	webDumpLine    = regexp.MustCompile(`(?m)^(goroutine [0-9]+ (gp=[^\n]*)?\[|goroutine profile: total [0-9]+$)`)
)

// webSniff is how much of a file is read to tell a dump from a profile.
const webSniff = 1 << 20

// sniffWeb tells what the one file among sources is: a trace by its
// header, a goroutine dump (text: a panic, SIGQUIT output, debug=1 or
// debug=2) by a goroutine header in its first megabyte. Anything else,
// and several sources or a URL, is a profile.
func sniffWeb(sources []string) webSource {
	if len(sources) != 1 {
		return webProfile
	}
	f, err := os.Open(sources[0])
	if err != nil {
		return webProfile
	}
	defer f.Close()
	head, _ := bufio.NewReaderSize(f, webSniff).Peek(webSniff)
	switch {
	case webTraceHeader.Match(head):
		return webTrace
	case len(head) > 0 && head[0] != 0x1f && webDumpLine.Match(head): // not gzip
		return webDump
	}
	return webProfile
}

// runWebSpecial serves the timeline of a trace or the groups of a dump
// when sources is one, and reports whether it did.
func runWebSpecial(ctx context.Context, sources []string, ws webServe) (bool, error) {
	kind := sniffWeb(sources)
	if kind == webProfile {
		return false, nil
	}
	anyHost := ws.anyHost()
	title := sources[0]
	var h http.Handler
	var path string
	switch kind {
	case webTrace:
		if len(ws.src.base) > 0 || len(ws.src.diffBase) > 0 {
			return true, usageErrorf("-base and -diff_base compare profiles or dumps, not traces (see perflab trace -base)")
		}
		f, err := os.Open(sources[0])
		if err != nil {
			return true, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return true, err
		}
		began := time.Now()
		ts, err := web.NewTrace(ctx, f, st.Size(), web.TraceOptions{Title: title, AnyHost: anyHost, Token: ws.token})
		if err != nil {
			return true, fmt.Errorf("%s: %w", sources[0], err)
		}
		fmt.Fprintf(ws.stderr, "Indexed %s (%d MB, about %v of trace) and read its first generation in %.1fs; reading the rest in the background\n",
			sources[0], st.Size()>>20, ts.Duration().Round(time.Millisecond), time.Since(began).Seconds())
		go func() {
			switch err := ts.Wait(ctx); {
			case err == nil:
				fmt.Fprintf(ws.stderr, "Read %s in %.1fs\n", sources[0], time.Since(began).Seconds())
			case ctx.Err() == nil:
				fmt.Fprintf(ws.stderr, "perflab web: %s: %v\n", sources[0], err)
			}
		}()
		h, path = ts, "/ui/timeline"
	case webDump:
		gs, err := webDumpServer(ctx, sources, ws, title, anyHost)
		if err != nil {
			return true, err
		}
		h, path = gs, "/ui/goroutines"
	}
	return true, serveWebHandler(ctx, h, path, ws)
}

// webDumpServer reads the dump and its -base, if any.
func webDumpServer(ctx context.Context, sources []string, ws webServe, title string, anyHost bool) (*web.GoroutineServer, error) {
	if len(ws.src.diffBase) > 0 {
		return nil, usageErrorf("-diff_base compares profiles: give the earlier dump with -base")
	}
	opts, err := ws.src.options(ws.stdin, ws.stderr)
	if err != nil {
		return nil, err
	}
	d := goroutines.NewDump()
	if err := readDumps(ctx, sources, d, opts, false); err != nil {
		return nil, err
	}
	if len(ws.src.base) > 0 {
		base := goroutines.NewDump()
		if err := readDumps(ctx, ws.src.base, base, opts, false); err != nil {
			return nil, err
		}
		d.Compare(base)
		title += " (base " + strings.Join(ws.src.base, " ") + ")"
	}
	d.Sort()
	return web.NewGoroutines(d, web.GoroutineOptions{Title: title, AnyHost: anyHost, Token: ws.token})
}
