package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/timeline"
)

// TraceOptions configure a TraceServer.
type TraceOptions struct {
	// Title names the trace in the pages' titles.
	Title string
	// AnyHost turns off the Host check, as in Options.
	AnyHost bool
	// Token, if not "", is required of every request, as in Options.
	Token string
}

// A TraceServer serves the timeline of one execution trace: /ui/timeline
// draws per-P lanes, GC and stop-the-world bands and goroutines alive on
// a canvas from tiles that /ui/timeline/tiles aggregates for the visible
// window; /ui/timeline/stack answers a click with the stack of the
// goroutine a P ran; /ui/trace shows the summary and its verdicts.
//
// It serves as soon as it has indexed the trace's generations and read
// the first: the overview of the whole trace in a fixed number of columns
// is read in the background, several generations at a time, then the
// summary; until then the timeline shows what is read and marks the rest.
// It never keeps the events: a window finer than the overview is read
// again from the trace's bytes, only the generations it overlaps.
type TraceServer struct {
	r        io.ReaderAt
	size     int64
	ix       *exectrace.Index
	overview *exectrace.Overview
	spans    *exectrace.SpanIndex // the longest tasks and regions, read with the overview
	scanNote string               // why the index stops early, if it does
	opts     TraceOptions
	front    http.Handler // the routes behind the checks
	read     sync.Mutex   // one window read at a time bounds memory
	cache    *cache

	sumDone chan struct{} // closed when the fields below are set
	sum     *exectrace.Summary
	text    string // the summary for people, with its verdicts
	sumNote string // what the summary lost of a truncated trace
	sumErr  error
	stop    context.CancelFunc // of the reading in the background
}

// overviewColumns is the resolution of the whole-trace tiles kept in memory.
const overviewColumns = 8192

// tileCacheBytes bounds the tiles answers kept.
const tileCacheBytes = 32 << 20

// maxTileColumns bounds the width parameter of a tiles request.
const maxTileColumns = 8192

// keptSpans is how many of the longest tasks and regions of the whole
// trace are kept for the overview; maxBars how many a tiles answer draws.
const (
	keptSpans = 8192
	maxBars   = 1000
)

// NewTrace indexes the trace in r (size bytes), reads its first
// generation and returns a server of its timeline, which goes on reading
// the rest in the background until ctx is done. A trace whose first
// generation cannot be read is refused, and so is a corrupt one
// (exectrace.ErrCorrupt: a broken generation that no truncation explains,
// or more than exectrace.MaxGenerations); a truncated one is served
// without the generations that cannot be read, with a note.
func NewTrace(ctx context.Context, r io.ReaderAt, size int64, o TraceOptions) (*TraceServer, error) {
	ix, err := exectrace.ScanIndex(io.NewSectionReader(r, 0, size))
	switch {
	case ix == nil, errors.Is(err, exectrace.ErrCorrupt): // refused, as perflab trace refuses it
		return nil, err
	case ix.Generations() == 0 && err != nil:
		return nil, fmt.Errorf("trace broken in its first generation: %w", err)
	case ix.Generations() == 0:
		return nil, fmt.Errorf("no generation of events: %w", exectrace.ErrEmpty)
	}
	s := &TraceServer{r: r, size: size, ix: ix, overview: exectrace.NewOverview(ix, overviewColumns),
		spans: exectrace.NewSpanIndex(ix, keptSpans), opts: o, cache: newCache(tileCacheBytes), sumDone: make(chan struct{})}
	if err != nil {
		s.scanNote = "trace truncated or corrupt: " + err.Error()
	}
	ctx, s.stop = context.WithCancel(ctx)
	go s.load(ctx)
	if rerr := s.overview.WaitFor(ctx, 1); rerr != nil {
		s.stop()
		if err != nil { // the index says why
			return nil, fmt.Errorf("trace broken in its first generation: %w", err)
		}
		return nil, rerr
	}
	s.routes()
	return s, nil
}

// load reads the overview, then the summary.
func (s *TraceServer) load(ctx context.Context) {
	defer close(s.sumDone)
	if err := s.overview.Load(ctx, s.r, runtime.GOMAXPROCS(0), s.spans); err != nil {
		s.sumErr = err
		return
	}
	a := exectrace.NewAnalyzer()
	in := &ctxReader{ctx: ctx, r: io.NewSectionReader(s.r, 0, s.size)}
	_, err := exectrace.Read(in, a)
	var te *exectrace.TruncatedError
	switch {
	case errors.As(err, &te):
		s.sumNote = err.Error()
	case err != nil:
		s.sumErr = err
		return
	}
	s.sum = a.Finish()
	var buf bytes.Buffer
	if err := s.sum.WriteText(&buf); err != nil {
		s.sumErr = err
		return
	}
	s.text = buf.String()
}

// Wait waits until the whole trace is read, for the overview and the
// summary, or ctx is done.
func (s *TraceServer) Wait(ctx context.Context) error {
	select {
	case <-s.sumDone:
		return s.sumErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// summary returns the summary if it is ready, else nil.
func (s *TraceServer) summary() *exectrace.Summary {
	select {
	case <-s.sumDone:
		return s.sum
	default:
		return nil
	}
}

// note says what is lost of a truncated or corrupt trace.
func (s *TraceServer) note() string {
	select {
	case <-s.sumDone:
		if s.sumNote != "" {
			return s.sumNote
		}
	default:
	}
	if notes := s.overview.Notes(); len(notes) > 0 {
		return strings.Join(notes, "; ")
	}
	return s.scanNote
}

// ctxReader stops a read when its context is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Duration returns the length of the trace: an estimate from its index
// until its last generation is read.
func (s *TraceServer) Duration() time.Duration { return s.overview.End() }

// ServeHTTP answers r, after the checks of Options (the Host, cross-site
// requests, the token).
func (s *TraceServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.front.ServeHTTP(w, r)
}

func (s *TraceServer) routes() {
	m := http.NewServeMux()
	m.Handle("/{$}", http.RedirectHandler("/ui/timeline", http.StatusFound))
	m.Handle("/ui/{$}", http.RedirectHandler("/ui/timeline", http.StatusFound))
	m.HandleFunc("/ui/timeline", s.timelinePage)
	m.HandleFunc("/ui/trace", s.summaryPage)
	m.HandleFunc("/ui/timeline/tiles", s.tiles)
	m.HandleFunc("/ui/timeline/stack", s.stack)
	m.HandleFunc("/ui/api/trace", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Wait(r.Context()); err != nil {
			http.Error(w, "summary: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		body, err := json.Marshal(s.sum)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		write(w, r, http.StatusOK, "application/json", body)
	})
	static, _ := fs.Sub(assets, "assets")
	m.Handle("/ui/assets/", http.StripPrefix("/ui/assets/", http.FileServerFS(static)))
	m.Handle("/ui/timeline/assets/", http.StripPrefix("/ui/timeline/assets/", http.FileServerFS(timeline.Assets())))
	s.front = protect(getOnly(m), s.opts.AnyHost, s.opts.Token)
}

// A tileAnswer is the JSON of /ui/timeline/tiles: the tiles, the tasks and
// regions in the window, and where the tiles came from.
type tileAnswer struct {
	*exectrace.Tiles
	Spans     []spanStat       `json:"spans"`
	Bars      []exectrace.Span `json:"bars"` // the longest tasks and regions in the window
	GoLanes   []goLane         `json:"goroutine_lanes"`
	Source    string           `json:"source"` // "overview" or "window"
	ReadBytes int64            `json:"read_bytes"`
	Duration  int64            `json:"duration_ns"`
	// Progress says how much of the trace the overview has read; the
	// page asks again until it is all read.
	Progress exectrace.Progress `json:"progress"`
	// SummaryPending is true until the summary, and so the tasks and
	// regions of the whole trace, are read.
	SummaryPending bool `json:"summary_pending"`
}

// tiles answers ?start=NS&end=NS&width=COLUMNS with the tiles of that
// window: from the overview when its columns are fine enough, else read
// from the generations the window overlaps.
func (s *TraceServer) tiles(w http.ResponseWriter, r *http.Request) {
	start, end, width, err := s.window(r)
	var ids []int64
	if err == nil {
		ids, err = goLaneIDs(r.URL.Query())
	}
	if err != nil {
		http.Error(w, "tiles: "+err.Error(), http.StatusBadRequest)
		return
	}
	k := fmt.Sprintf("tiles?%d&%d&%d&%v", start, end, width, ids)
	a, ok := s.cache.Get(k)
	if !ok {
		ans, err := s.tileAnswer(start, end, width, ids)
		if err != nil {
			http.Error(w, "tiles: "+err.Error(), http.StatusInternalServerError)
			return
		}
		body, err := json.Marshal(ans)
		if err != nil {
			http.Error(w, "tiles: "+err.Error(), http.StatusInternalServerError)
			return
		}
		a = answer{body: body, contentType: "application/json"}
		if ans.Source == "window" || ans.Progress.Done() && !ans.SummaryPending {
			s.cache.Put(k, a)
		}
	}
	write(w, r, http.StatusOK, a.contentType, a.body)
}

// window reads start, end and width from the URL: the whole trace and
// 1000 columns when absent.
func (s *TraceServer) window(r *http.Request) (start, end time.Duration, width int, err error) {
	q := r.URL.Query()
	num := func(name string, def int64) (int64, error) {
		v := q.Get(name)
		if v == "" {
			return def, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("URL parameter %s: want a number of nanoseconds ≥ 0 (columns for width), got %q", name, v)
		}
		return n, nil
	}
	a, err := num("start", 0)
	if err != nil {
		return 0, 0, 0, err
	}
	b, err := num("end", int64(s.overview.End()))
	if err != nil {
		return 0, 0, 0, err
	}
	n, err := num("width", 1000)
	if err != nil {
		return 0, 0, 0, err
	}
	if b <= a {
		return 0, 0, 0, fmt.Errorf("URL parameters start=%d end=%d: an empty window", a, b)
	}
	if n < 1 || n > maxTileColumns {
		return 0, 0, 0, fmt.Errorf("URL parameter width: want 1 to %d columns, got %d", maxTileColumns, n)
	}
	return time.Duration(a), time.Duration(b), int(n), nil
}

// tileAnswer computes the tiles of a window, with the lanes of the
// goroutines ids: those are read from the trace whatever the window.
func (s *TraceServer) tileAnswer(start, end time.Duration, width int, ids []int64) (*tileAnswer, error) {
	ov, progress, _ := s.overview.Tiles()
	ans := &tileAnswer{Duration: int64(s.overview.End()), GoLanes: []goLane{}, Progress: progress, SummaryPending: s.summary() == nil}
	ovCol := float64(ov.End-ov.Start) / float64(max(1, ov.Columns))
	if float64(end-start)/float64(width) >= ovCol && len(ids) == 0 {
		ans.Tiles, ans.Source = resample(ov, s.overview.End(), start, end, width), "overview"
		ans.Spans, _ = s.summarySpans()
		ans.Bars = s.spans.Window(start, end, maxBars)
		return ans, nil
	}
	s.read.Lock()
	defer s.read.Unlock()
	t := s.ix.Tiler(start, end, width)
	spans := newSpanSink(s.ix.Origin(), start, end)
	lanes := newLaneSink(s.ix.Origin(), start, end, width, ids)
	bars := exectrace.NewSpanCollector(s.ix.Origin(), maxBars)
	n, err := s.ix.ReadWindow(s.r, start, end, t, spans, lanes, bars)
	var te *exectrace.TruncatedError
	if err != nil && !errors.As(err, &te) {
		return nil, err
	}
	ans.Tiles, ans.Source, ans.ReadBytes = t.Tiles(), "window", n
	ans.Spans = spans.stats()
	ans.Bars = inWindow(bars.Spans(), start, end)
	if len(ids) > 0 {
		ans.GoLanes = lanes.lanes()
	}
	return ans, nil
}
