package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/web"
)

// hostileName is a task and region name that would break out of HTML.
const hostileName = `</script><script>window.pwned=1</script><b>`

// tracedProgram spins four goroutines in tasks and regions (one region
// named hostileName) with a GC in between, writing a trace to os.Args[1].
const tracedProgram = `package main

import (
	"context"
	"os"
	"runtime"
	"runtime/trace"
	"sync"
	"time"
)

var sink []byte

//go:noinline
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
		sink = make([]byte, 64)
	}
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := trace.Start(f); err != nil {
		panic(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			ctx, task := trace.NewTask(context.Background(), "work")
			defer task.End()
			name := "spin"
			if i == 0 {
				name = ` + "`" + hostileName + "`" + `
			}
			trace.WithRegion(ctx, name, func() { spin(150 * time.Millisecond) })
		})
	}
	runtime.GC()
	wg.Wait()
	trace.Stop()
	f.Close()
}
`

var traced struct {
	once sync.Once
	data []byte
	err  error
}

// tracedData runs tracedProgram once, with a generation every 20ms (a
// window then reads only some of them), and returns its trace.
func tracedData(t *testing.T) []byte {
	t.Helper()
	traced.once.Do(func() {
		prog := testprog.BuildSource(t, tracedProgram)
		path := filepath.Join(t.TempDir(), "trace.out")
		cmd := exec.Command(prog, path)
		cmd.Env = append(os.Environ(), "GODEBUG=traceadvanceperiod=20000000")
		if b, err := cmd.CombinedOutput(); err != nil {
			traced.err = fmt.Errorf("traced program: %v\n%s", err, b)
			return
		}
		traced.data, traced.err = os.ReadFile(path)
	})
	if traced.err != nil {
		t.Fatal(traced.err)
	}
	return traced.data
}

// traceServer serves the trace of tracedProgram.
func traceServer(t *testing.T) (*httptest.Server, *web.TraceServer) {
	t.Helper()
	data := tracedData(t)
	ts, err := web.NewTrace(t.Context(), bytes.NewReader(data), int64(len(data)), web.TraceOptions{Title: "trace.out " + hostileName})
	if err != nil {
		t.Fatal(err)
	}
	if err := ts.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ts)
	t.Cleanup(srv.Close)
	return srv, ts
}

type tilesJSON struct {
	Start   int64  `json:"start_ns"`
	End     int64  `json:"end_ns"`
	Columns int    `json:"columns"`
	Source  string `json:"source"`
	Read    int64  `json:"read_bytes"`
	Procs   []struct {
		Proc int       `json:"proc"`
		Busy []float64 `json:"busy"`
	} `json:"procs"`
	GC       []struct{ Start, End int64 } `json:"gc"`
	Progress struct {
		Read        int                          `json:"generations_read"`
		Generations int                          `json:"generations"`
		Pending     []struct{ Start, End int64 } `json:"pending"`
	} `json:"progress"`
	SummaryPending bool `json:"summary_pending"`
	Bars           []struct {
		Kind  string `json:"kind"`
		Name  string `json:"name"`
		Start int64  `json:"start_ns"`
		End   int64  `json:"end_ns"`
		G     int64  `json:"g"`
	} `json:"bars"`
	GoLanes []struct {
		Goroutine int64
		Busy      json.RawMessage
	} `json:"goroutine_lanes"`
	laneJSON string
	Spans    []struct {
		Kind, Name string
		Count      int64
		Total      int64 `json:"total_ns"`
	} `json:"spans"`
}

func getTiles(t *testing.T, srv *httptest.Server, query string) tilesJSON {
	t.Helper()
	code, body := get(t, srv, "/ui/timeline/tiles?"+query)
	if code != http.StatusOK {
		t.Fatalf("tiles?%s: %d %s", query, code, body)
	}
	var tl tilesJSON
	if err := json.Unmarshal([]byte(body), &tl); err != nil {
		t.Fatal(err)
	}
	if len(tl.GoLanes) == 1 {
		tl.laneJSON = string(tl.GoLanes[0].Busy)
	}
	return tl
}

// busyNs is the P time the tiles say was spent running goroutines.
func (tl tilesJSON) busyNs() float64 {
	col := float64(tl.End-tl.Start) / float64(tl.Columns)
	sum := 0.0
	for _, p := range tl.Procs {
		for _, b := range p.Busy {
			sum += b * col
		}
	}
	return sum
}

func TestTraceTimeline(t *testing.T) {
	srv, ts := traceServer(t)
	d := int64(ts.Duration())
	whole := getTiles(t, srv, "width=500")
	if whole.Source != "overview" || whole.End != d || whole.Columns != 500 || len(whole.Procs) == 0 {
		t.Fatalf("whole trace: source %q, end %d (want %d), %d columns, %d Ps", whole.Source, whole.End, d, whole.Columns, len(whole.Procs))
	}
	// The goroutines spun for 150ms: the Ps were busy at least as long as
	// the summary's goroutines were running.
	_, body := get(t, srv, "/ui/api/trace")
	var sum struct {
		States map[string]float64 `json:"state_seconds"`
	}
	if err := json.Unmarshal([]byte(body), &sum); err != nil {
		t.Fatal(err)
	}
	if b, run := whole.busyNs()/1e9, sum.States["running"]; b < 0.14 || b < 0.95*run {
		t.Errorf("busy P time of the whole trace %.3fs, want ≥ 0.14s and ≥ the %.3fs running", b, run)
	}
	spans := map[string]int64{}
	for _, s := range whole.Spans {
		spans[s.Kind+" "+s.Name] = s.Count
	}
	if spans["task work"] != 4 || spans["region spin"] != 3 || spans["region "+hostileName] != 1 {
		t.Errorf("spans of the whole trace: %v", spans)
	}
	// The tasks and regions are drawn as bars: each region on its
	// goroutine, lasting the 150ms it spun, within its task.
	bars := map[string]int64{}
	for _, b := range whole.Bars {
		bars[b.Kind+" "+b.Name]++
		if b.Kind == "region" && (b.G <= 0 || b.End-b.Start < 140e6 || b.End > d) {
			t.Errorf("region bar %+v: want a goroutine and 150ms", b)
		}
	}
	if bars["task work"] != 4 || bars["region spin"] != 3 || bars["region "+hostileName] != 1 {
		t.Errorf("bars of the whole trace: %v", bars)
	}

	// A window finer than the overview is read from the trace, and
	// agrees with the overview on the P time within it.
	a, b := d/3, d/3+d/1000
	fine := getTiles(t, srv, "start="+itoa(a)+"&end="+itoa(b)+"&width=200")
	if fine.Source != "window" || fine.Read <= 0 || fine.Start != a || fine.End != b || fine.Columns != 200 {
		t.Fatalf("fine window: source %q, read %d bytes, [%d, %d) in %d columns", fine.Source, fine.Read, fine.Start, fine.End, fine.Columns)
	}
	if most := twoLargestGenerations(t, tracedData(t)); fine.Read > most {
		t.Errorf("a window of a thousandth of the trace read %d bytes, more than its two largest generations (%d)", fine.Read, most)
	}
	for _, bar := range fine.Bars {
		if bar.End < a || bar.Start >= b {
			t.Errorf("bar %+v outside the window [%d, %d)", bar, a, b)
		}
	}
	coarse := getTiles(t, srv, "start=0&end="+itoa(d)+"&width=1")
	if got, want := fine.busyNs(), float64(b-a)*float64(len(fine.Procs)); got > want*1.05 {
		t.Errorf("fine window busy %.0fns, more than its %d Ps x window %.0fns", got, len(fine.Procs), want)
	}
	if math.Abs(coarse.busyNs()-whole.busyNs()) > 0.01*whole.busyNs() {
		t.Errorf("busy time: 1 column %.0fns, 500 columns %.0fns", coarse.busyNs(), whole.busyNs())
	}
	// The program's goroutines spin in the window, unless a loaded machine
	// let a runtime goroutine hold both Ps there: then anywhere.
	g, from, until := clickStack(t, srv, fine, whole)
	if until < 0 {
		return // ran past its generation
	}
	// The goroutine's lane is full over the span it ran (the first half).
	lane := getTiles(t, srv, "start="+itoa(from)+"&end="+itoa(until+(until-from))+"&width=20&g="+itoa(g))
	var busy []float64
	if err := json.Unmarshal([]byte(lane.laneJSON), &busy); err != nil {
		t.Fatal(err)
	}
	for i, b := range busy {
		if (i < 9 && b < 0.99) || b > 1 {
			t.Errorf("goroutine %d ran [%d, %d): lane %v", g, from, until, busy)
			break
		}
	}
}

// twoLargestGenerations returns the bytes of the trace's two largest
// generations: a window within one generation, or across a boundary,
// reads no more.
func twoLargestGenerations(t *testing.T, data []byte) int64 {
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for i := range ix.Generations() {
		off, end := ix.GenerationBytes(i)
		sizes = append(sizes, end-off)
	}
	slices.Sort(sizes)
	if len(sizes) < 2 {
		return sizes[0]
	}
	return sizes[len(sizes)-1] + sizes[len(sizes)-2]
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// clickStack asks for the stacks where the Ps of the windows were busy:
// each names a goroutine running then, and one of them is a goroutine
// spinning in main.spin.
func clickStack(t *testing.T, srv *httptest.Server, tls ...tilesJSON) (g, from, until int64) {
	t.Helper()
	clicks, lastBody := 0, ""
	for _, tl := range tls {
		col := float64(tl.End-tl.Start) / float64(tl.Columns)
		n := 0 // clicks in these tiles
		for _, p := range tl.Procs {
			for i := 1; i < len(p.Busy)-1 && n < 60; i += 3 {
				if p.Busy[i] < 0.99 {
					continue
				}
				clicks, n = clicks+1, n+1
				at := tl.Start + int64((float64(i)+0.5)*col)
				code, body := get(t, srv, "/ui/timeline/stack?t="+itoa(at)+"&p="+itoa(int64(p.Proc)))
				var a struct {
					Goroutine int64
					From      int64 `json:"from_ns"`
					Until     int64 `json:"until_ns"`
					Text      string
				}
				if code != http.StatusOK || json.Unmarshal([]byte(body), &a) != nil {
					t.Fatalf("stack: %d %s", code, body)
				}
				if a.Goroutine == 0 || a.From > at {
					t.Fatalf("P%d busy at %d but the stack says: %s", p.Proc, at, a.Text)
				}
				lastBody = body
				if strings.Contains(body, `"main.spin"`) {
					return a.Goroutine, a.From, a.Until
				}
			}
		}
	}
	t.Fatalf("no click on %d busy columns found main.spin; the last answer: %s", clicks, lastBody)
	return 0, 0, 0
}

func TestTracePages(t *testing.T) {
	srv, _ := traceServer(t)
	code, body := get(t, srv, "/ui/timeline")
	if code != http.StatusOK || !strings.Contains(body, `<canvas id="timeline"`) || !strings.Contains(body, "/ui/assets/trace.js") {
		t.Fatalf("timeline page: %d\n%s", code, body)
	}
	code, body = get(t, srv, "/ui/trace")
	if code != http.StatusOK || !strings.Contains(body, "GOMAXPROCS") || !strings.Contains(body, "&lt;/script&gt;&lt;script&gt;window.pwned=1") {
		t.Fatalf("summary page: %d\n%s", code, body)
	}
	for _, page := range []string{"/ui/timeline", "/ui/trace"} {
		if _, body := get(t, srv, page); strings.Contains(body, "window.pwned=1</script>") {
			t.Errorf("%s: hostile name not escaped", page)
		}
	}
	for _, asset := range []string{"/ui/timeline/assets/timeline.js", "/ui/assets/trace.js", "/ui/assets/trace.css"} {
		if code, _ := get(t, srv, asset); code != http.StatusOK {
			t.Errorf("%s: %d", asset, code)
		}
	}
}

func TestTraceBadParams(t *testing.T) {
	srv, _ := traceServer(t)
	for _, q := range []string{
		"/ui/timeline/tiles?start=x", "/ui/timeline/tiles?width=0", "/ui/timeline/tiles?width=100000",
		"/ui/timeline/tiles?start=10&end=5", "/ui/timeline/tiles?end=-3",
		"/ui/timeline/tiles?g=abc", "/ui/timeline/tiles?g=0", "/ui/timeline/tiles?g=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
		"/ui/timeline/stack?t=abc&p=0", "/ui/timeline/stack?t=5", "/ui/timeline/stack?t=5&p=-1",
	} {
		code, body := get(t, srv, q)
		if code != http.StatusBadRequest || !strings.Contains(body, "URL parameter") {
			t.Errorf("%s: %d %q, want 400 naming the parameter", q, code, body)
		}
	}
	if code, _ := get(t, srv, "/ui/timeline/tiles"); code != http.StatusOK {
		t.Errorf("server stopped answering after bad requests: %d", code)
	}
}

func TestTraceHostCheck(t *testing.T) {
	srv, _ := traceServer(t)
	for host, want := range map[string]int{"evil.example": http.StatusForbidden, "localhost": http.StatusOK} {
		req, _ := http.NewRequest("GET", srv.URL+"/ui/timeline", nil)
		req.Host = host
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

func TestTraceNotATrace(t *testing.T) {
	data := []byte("not a trace at all, just text\n")
	if _, err := web.NewTrace(t.Context(), strings.NewReader(string(data)), int64(len(data)), web.TraceOptions{}); err == nil {
		t.Fatal("NewTrace accepted text")
	}
}

// TestTraceTruncated serves a trace cut in its last generation: what is
// complete, with a note saying what was lost; a trace cut in its first
// generation is refused with the reason.
func TestTraceTruncated(t *testing.T) {
	data := tracedData(t)
	ix, err := exectrace.ScanIndex(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := ix.GenerationBytes(0)
	if _, err := web.NewTrace(t.Context(), bytes.NewReader(data[:first+100]), first+100, web.TraceOptions{}); err == nil || !strings.Contains(err.Error(), "first generation") {
		t.Errorf("trace cut in its first generation: %v", err)
	}
	if ix.Generations() < 2 {
		t.Fatalf("the trace has %d generation; the test needs 2", ix.Generations())
	}
	last, _ := ix.GenerationBytes(ix.Generations() - 1)
	cut := data[:last+100]
	ts, err := web.NewTrace(t.Context(), bytes.NewReader(cut), int64(len(cut)), web.TraceOptions{})
	if err != nil {
		t.Fatalf("a trace cut in its last generation is served, not refused: %v", err)
	}
	// The cut is found when the last generation is read, after NewTrace
	// returns: the note is there once the trace is read.
	if err := ts.Wait(t.Context()); err != nil {
		t.Fatalf("reading the cut trace: %v", err)
	}
	srv := httptest.NewServer(ts)
	defer srv.Close()
	code, body := get(t, srv, "/ui/timeline")
	if code != http.StatusOK || !strings.Contains(body, `class="warning"`) {
		t.Errorf("no note of the truncation: %d\n%s", code, body)
	}
	if tl := getTiles(t, srv, "width=50"); tl.End <= 0 {
		t.Errorf("tiles of the truncated trace end at %d", tl.End)
	}
}

// TestTraceServesWhileReading: the server answers from its first
// generation on; each answer says how much is read, and once the whole
// trace is, the same request gets the whole overview (what was answered
// while reading is not cached).
//
// Both requests name the same window, one far past the trace's end: the
// default window ends at the trace's end as known when asked, which moves
// once the last generation is read.
func TestTraceServesWhileReading(t *testing.T) {
	data := tracedData(t)
	ts, err := web.NewTrace(t.Context(), bytes.NewReader(data), int64(len(data)), web.TraceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ts)
	defer srv.Close()
	window := fmt.Sprintf("start=0&end=%d&width=300", int64(time.Minute))
	early := getTiles(t, srv, window)
	p := early.Progress
	if p.Read < 1 || p.Read > p.Generations || (p.Read < p.Generations) != (len(p.Pending) > 0) {
		t.Errorf("while reading: progress %+v", p)
	}
	if err := ts.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	done := getTiles(t, srv, window)
	if p := done.Progress; p.Read != p.Generations || len(p.Pending) != 0 || done.SummaryPending || len(done.Spans) == 0 {
		t.Errorf("after reading: progress %+v, summary pending %v, %d spans", p, done.SummaryPending, len(done.Spans))
	}
	if done.busyNs() < early.busyNs() {
		t.Errorf("the whole trace is less busy (%.0fns) than the part read first (%.0fns)", done.busyNs(), early.busyNs())
	}
	// The default window ends at the trace's end, inside the overview's
	// last column, and holds all of that column's busy time all the same.
	if whole := getTiles(t, srv, "width=300"); math.Abs(whole.busyNs()-done.busyNs()) > 1e-6*done.busyNs() {
		t.Errorf("the window to the trace's end (%d ns) is busy %.0fns, one past it %.0fns", whole.End, whole.busyNs(), done.busyNs())
	}
	if _, body := get(t, srv, "/ui/trace"); !strings.Contains(body, `id="summary"`) {
		t.Errorf("summary page after reading: %.300s", body)
	}
}
