package collect

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"
)

// servePprof serves one entry of the /debug/pprof/ tree.
func (h *handler) servePprof(w http.ResponseWriter, r *http.Request, name string) {
	switch name {
	case "":
		h.serveIndex(w, r)
	case "profile":
		h.serveTimed(w, r, "profile", 30*time.Second, runCPU)
	case "trace":
		h.serveTimed(w, r, "trace", time.Second, h.runTrace)
	case "wall":
		h.serveTimed(w, r, "wall", 30*time.Second, runWall)
	case "flightrecorder":
		h.serveFlight(w, r)
	case "symbol":
		serveSymbol(w, r)
	case "cmdline":
		h.serveCmdline(w, r)
	default:
		h.serveNamed(w, r, name)
	}
}

// A timedRun records for d (or until ctx is done) into w; busy reports
// that the runtime refused because the same kind of recording is running.
type timedRun func(ctx context.Context, d time.Duration, w io.Writer) (busy bool, err error)

// serveTimed runs a recording that lasts the request's seconds, one at a
// time: a concurrent request gets 429. A trace is streamed to the client
// as it is recorded, since it can grow by tens of megabytes a second; the
// profiles are small and are buffered, so that a failure can still be
// answered with an error.
func (h *handler) serveTimed(w http.ResponseWriter, r *http.Request, what string, def time.Duration, run timedRun) {
	d, err := ParseSeconds(r.URL.Query().Get("seconds"), def, h.opts.maxDuration())
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	release, ok := h.slots.take(r.Context(), what, 1)
	if !ok {
		tooMany(w, fmt.Sprintf("a %s is already being recorded; try again later", what))
		return
	}
	defer release()
	end := time.Now().Add(d + writeGrace)
	if what == "trace" {
		// A trace stopped early for its backlog still sends the rest of
		// the generation being sent, up to twice the backlog (or the
		// first generation, whatever its size).
		streamTimed(w, r, what, d, end.Add(drainTime(2*h.opts.maxTraceBacklog())), run)
		return
	}
	var buf bytes.Buffer
	busy, err := run(r.Context(), d, &buf)
	switch {
	case busy:
		tooMany(w, fmt.Sprintf("the program is already recording a %s; try again later", what))
	case err != nil:
		httpError(w, http.StatusInternalServerError, what+": "+err.Error())
	case r.Context().Err() != nil:
		// The client left; nobody to answer.
	default:
		serveData(w, r, what, buf.Bytes(), end)
	}
}

// streamTimed runs a recording that writes straight to the client. A
// client that leaves, or stops reading for writeStall, ends the recording
// early and gets a truncated answer.
func streamTimed(w http.ResponseWriter, r *http.Request, what string, d time.Duration, end time.Time, run timedRun) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	dataHeaders(w, what)
	sw := newStallWriter(w, r, end, traceStall, cancel)
	sw.stream = true
	defer sw.close()
	busy, err := run(ctx, d, sw)
	switch {
	case busy:
		tooMany(w, fmt.Sprintf("the program is already recording a %s; try again later", what))
	case errors.Is(err, errFirstGeneration):
		httpError(w, http.StatusServiceUnavailable, what+": "+err.Error())
	case err != nil && sw.n == 0:
		httpError(w, http.StatusInternalServerError, what+": "+err.Error())
	}
}

func tooMany(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", "1")
	httpError(w, http.StatusTooManyRequests, msg)
}

// serveData sends a binary profile or trace as an attachment, which the
// client must take before end.
func serveData(w http.ResponseWriter, r *http.Request, name string, data []byte, end time.Time) {
	dataHeaders(w, name)
	sendAll(w, r, data, end)
}

// sendAll writes a buffered answer, which the client must take before end.
func sendAll(w http.ResponseWriter, r *http.Request, data []byte, end time.Time) {
	sw := newStallWriter(w, r, end, writeStall, nil)
	sw.Write(data)
	sw.close()
}

// dataHeaders marks an answer as a binary attachment.
func dataHeaders(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", name))
	w.Header().Set("X-Content-Type-Options", "nosniff")
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

func runCPU(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	if err := pprof.StartCPUProfile(w); err != nil {
		return true, err
	}
	sleep(ctx, d)
	pprof.StopCPUProfile()
	return false, nil
}

func runWall(ctx context.Context, d time.Duration, w io.Writer) (bool, error) {
	s := startWall(DefaultWallRate)
	sleep(ctx, d)
	return false, s.stop().Write(w)
}

// serveFlight writes a snapshot of the flight recorder's window.
func (h *handler) serveFlight(w http.ResponseWriter, r *http.Request) {
	if h.flight == nil {
		msg := "flight recorder is off (ServerOptions.FlightRecorder)"
		if h.flightErr != nil {
			msg = "flight recorder could not start: " + h.flightErr.Error()
		}
		httpError(w, http.StatusNotFound, msg)
		return
	}
	release, ok := h.slots.take(r.Context(), "flightrecorder", 1)
	if !ok {
		tooMany(w, "a flight recorder snapshot is already being sent; try again later")
		return
	}
	defer release()
	end := time.Now().Add(writeGrace)
	var buf bytes.Buffer
	if _, err := h.flight.fr.WriteTo(&buf); err != nil {
		tooMany(w, "flight recorder snapshot failed: "+err.Error())
		return
	}
	serveData(w, r, "flightrecorder", buf.Bytes(), end)
}

// serveNamed writes a runtime/pprof profile: heap, allocs, goroutine,
// block, mutex, threadcreate or any the program added.
func (h *handler) serveNamed(w http.ResponseWriter, r *http.Request, name string) {
	p := pprof.Lookup(name)
	if p == nil {
		httpError(w, http.StatusNotFound, fmt.Sprintf("unknown profile %q", clip(name, 40)))
		return
	}
	q := r.URL.Query()
	debug, err := intParam(q.Get("debug"), 0, 2)
	if err != nil {
		httpError(w, http.StatusBadRequest, "bad debug: "+err.Error())
		return
	}
	gc, err := intParam(q.Get("gc"), 0, 1)
	if err != nil {
		httpError(w, http.StatusBadRequest, "bad gc: "+err.Error())
		return
	}
	if q.Has("seconds") {
		h.serveDelta(w, r, p, debug)
		return
	}
	release, ok := h.slots.take(r.Context(), name, h.opts.maxConcurrent())
	if !ok {
		tooMany(w, fmt.Sprintf("too many %s profiles at once; try again later", name))
		return
	}
	defer release()
	end := time.Now().Add(writeGrace)
	if gc > 0 && (name == "heap" || name == "allocs") {
		runtime.GC()
	}
	var buf bytes.Buffer
	if err := p.WriteTo(&buf, debug); err != nil {
		httpError(w, http.StatusInternalServerError, name+": "+err.Error())
		return
	}
	if debug > 0 {
		plainText(w)
		sendAll(w, r, buf.Bytes(), end)
		return
	}
	serveData(w, r, name, buf.Bytes(), end)
}

// intParam parses an optional small integer parameter in [lo, hi].
func intParam(s string, lo, hi int) (int, error) {
	if s == "" {
		return lo, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%q is not an integer from %d to %d", clip(s, 20), lo, hi)
	}
	return n, nil
}

// serveSymbol maps addresses to function names the way net/http/pprof
// does, for pprof's remote symbolization: the addresses come '+'-separated
// in the query or the POST body.
func serveSymbol(w http.ResponseWriter, r *http.Request) {
	plainText(w)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "num_symbols: 1\n")
	var in *bufio.Reader
	if r.Method == http.MethodPost {
		in = bufio.NewReader(io.LimitReader(r.Body, 1<<20))
	} else {
		in = bufio.NewReader(strings.NewReader(r.URL.RawQuery))
	}
	for {
		word, err := in.ReadSlice('+')
		if err == nil {
			word = word[:len(word)-1]
		}
		if pc, perr := strconv.ParseUint(string(word), 0, 64); perr == nil && pc != 0 {
			if f := runtime.FuncForPC(uintptr(pc)); f != nil {
				fmt.Fprintf(&buf, "%#x %s\n", pc, f.Name())
			}
		}
		if err != nil {
			break
		}
	}
	w.Write(buf.Bytes())
}

// serveCmdline writes the program's arguments separated by NULs, if the
// options allow it.
func (h *handler) serveCmdline(w http.ResponseWriter, r *http.Request) {
	if !h.opts.Cmdline {
		httpError(w, http.StatusForbidden, "command line withheld (ServerOptions.Cmdline is off)")
		return
	}
	plainText(w)
	fmt.Fprint(w, strings.Join(os.Args, "\x00"))
}

var indexTemplate = template.Must(template.New("index").Parse(`<!DOCTYPE html>
<html><head><title>/debug/pprof/</title></head>
<body>
<p>/debug/pprof/</p>
<table>
<tr><th>count</th><th>profile</th></tr>
{{range .Profiles}}<tr><td>{{.Count}}</td><td><a href="{{.Name}}?debug=1">{{.Name}}</a></td></tr>
{{end}}<tr><td></td><td><a href="profile">profile</a> (CPU, ?seconds=30)</td></tr>
<tr><td></td><td><a href="wall">wall</a> (wall-clock, ?seconds=30)</td></tr>
<tr><td></td><td><a href="trace">trace</a> (?seconds=1)</td></tr>
{{if .Flight}}<tr><td></td><td><a href="flightrecorder">flightrecorder</a></td></tr>
{{end}}{{if .Cmdline}}<tr><td></td><td><a href="cmdline">cmdline</a></td></tr>
{{end}}<tr><td></td><td><a href="symbol">symbol</a></td></tr>
<tr><td></td><td><a href="../vars">vars</a></td></tr>
<tr><td></td><td><a href="../metrics">metrics</a></td></tr>
</table>
<p><a href="goroutine?debug=2">full goroutine stack dump</a></p>
</body></html>
`))

type indexEntry struct {
	Name  string
	Count int
}

// serveIndex lists the profiles, as net/http/pprof's index does.
func (h *handler) serveIndex(w http.ResponseWriter, r *http.Request) {
	var entries []indexEntry
	for _, p := range pprof.Profiles() {
		entries = append(entries, indexEntry{p.Name(), p.Count()})
	}
	slices.SortFunc(entries, func(a, b indexEntry) int { return strings.Compare(a.Name, b.Name) })
	var buf bytes.Buffer
	err := indexTemplate.Execute(&buf, map[string]any{
		"Profiles": entries, "Flight": h.flight != nil, "Cmdline": h.opts.Cmdline,
	})
	if err != nil {
		httpError(w, http.StatusInternalServerError, "index: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}
