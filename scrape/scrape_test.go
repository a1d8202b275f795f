package scrape

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	_ "net/http/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
)

// TestScrapeNetHTTPPprof scrapes a real program's net/http/pprof every
// second and checks what is stored: the allocs deltas add up to exactly
// what the program allocated in main.allocate after the first scrape (it
// records every allocation), the CPU profiles follow each other without
// gaps, and every series has the job's and the target's labels.
func TestScrapeNetHTTPPprof(t *testing.T) {
	tp := startTarget(t, "")
	s, st := runScraper(t, Config{Jobs: []Job{job(t, "shop", []string{"cpu", "allocs", "goroutine", "mutex"}, tp.pprof)}}, Options{})
	waitFor(t, 5*time.Second, "no first scrape of the memory profile", func() bool { return health(s, tp.pprof).Scraped["memory"] > 0 })
	const blocks, size = 300, 4096
	get(t, "http://"+tp.pprof+"/alloc?n=100")
	get(t, "http://"+tp.pprof+"/alloc?n=200")
	var space, objects int64
	waitFor(t, 10*time.Second, "the allocations of main.allocate not all stored", func() bool {
		space, objects = allocatedBy(ofKind(st, "memory"), "main.allocate")
		return space >= blocks*size
	})
	if space != blocks*size || objects != blocks {
		t.Errorf("stored deltas of main.allocate: %d bytes in %d objects, want %d in %d", space, objects, blocks*size, blocks)
	}
	waitFor(t, 10*time.Second, "fewer than 2 CPU profiles", func() bool { return len(ofKind(st, "process_cpu")) >= 2 })
	cpu := ofKind(st, "process_cpu")
	for i, p := range cpu {
		if d := time.Duration(p.Profile.DurationNanos); d < 900*time.Millisecond || d > 2*time.Second {
			t.Errorf("CPU profile %d covers %v, want the interval, 1s", i, d)
		}
		if i > 0 {
			end := cpu[i-1].Time.Add(time.Duration(cpu[i-1].Profile.DurationNanos))
			if gap := p.Time.Sub(end); gap > 500*time.Millisecond {
				t.Errorf("CPU profiles %d and %d: a gap of %v", i-1, i, gap)
			}
		}
	}
	want := store.NewLabels("__name__", "goroutines", "service_name", "shop", "instance", tp.pprof, "env", "test")
	if gs := ofKind(st, "goroutines"); len(gs) == 0 || gs[0].Labels.Compare(want) != 0 {
		t.Errorf("goroutine profiles %v, want labels %s", len(gs), want)
	}
	if h := health(s, tp.pprof); !h.Up || h.LastError != "" || h.LastSuccess.IsZero() || h.NextScrape.IsZero() {
		t.Errorf("health %+v, want up", h)
	}
}

// allocatedBy sums the alloc_space and alloc_objects of the samples whose
// stack holds function fn.
func allocatedBy(ps []store.Profile, fn string) (space, objects int64) {
	for _, p := range ps {
		si, oi := sampleIndex(p.Profile, "alloc_space"), sampleIndex(p.Profile, "alloc_objects")
		for _, s := range p.Profile.Sample {
			if hasFunction(s, fn) {
				space += s.Value[si]
				objects += s.Value[oi]
			}
		}
	}
	return space, objects
}

func sampleIndex(p *profile.Profile, typ string) int {
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	return -1
}

func hasFunction(s *profile.Sample, fn string) bool {
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function != nil && ln.Function.Name == fn {
				return true
			}
		}
	}
	return false
}

// TestScrapeCollect scrapes a real program's collect server, whose token
// the job carries, for its wall-clock and goroutine profiles; a job
// without the token records the server's refusal in its health.
func TestScrapeCollect(t *testing.T) {
	tp := startTarget(t, "s3cret-token")
	good := job(t, "api", []string{"wall", "goroutine"}, tp.collect)
	good.Token = "s3cret-token"
	bad := job(t, "anon", []string{"goroutine"}, "http://"+tp.collect)
	s, st := runScraper(t, Config{Jobs: []Job{good, bad}}, Options{})
	waitFor(t, 8*time.Second, "no wall-clock profile stored", func() bool { return len(ofKind(st, "wall")) > 0 })
	if len(ofKind(st, "goroutines")) == 0 {
		t.Error("no goroutine profile stored")
	}
	for _, p := range st.Written() {
		if p.Labels.Get("service_name") != "api" {
			t.Errorf("stored %s, want only the api job's", p.Labels)
		}
	}
	waitFor(t, 5*time.Second, "the job without a token has no error", func() bool { return health(s, "http://"+tp.collect).LastError != "" })
	if h := health(s, "http://"+tp.collect); h.Up || !strings.Contains(h.LastError, "401") || strings.Contains(h.LastError, "s3cret") {
		t.Errorf("health without the token: %+v, want down with 401", h)
	}
}

// TestScrapeFailingTarget checks that a target that refuses connections
// is retried with backoff and shown down at /targets, while the other
// target of its job is scraped on time.
func TestScrapeFailingTarget(t *testing.T) {
	srv := httptest.NewServer(http.DefaultServeMux) // net/http/pprof's handlers
	defer srv.Close()
	good := strings.TrimPrefix(srv.URL, "http://")
	dead := strings.TrimPrefix(testprog.ClosedPortURL(t), "http://")
	s, st := runScraper(t, Config{Jobs: []Job{job(t, "svc", []string{"goroutine"}, dead, good)}}, Options{})
	// Five scrapes of the good target, at o2 to o2+4s, see the dead one's
	// tries at o1, o1+1s and o1+3s, its next at o1+7s (both offsets are
	// in [0, 1s)); tried every second, it would have failed 4 times.
	waitFor(t, 9*time.Second, "the good target not scraped 5 times", func() bool { return health(s, good).Scraped["goroutines"] >= 5 })
	h := health(s, dead)
	if h.Up || h.Failures < 1 || !strings.Contains(h.LastError, "refused") || !h.NextScrape.After(h.LastErrorTime) {
		t.Errorf("dead target's health %+v, want down, a refusal and a next scrape", h)
	}
	if h.Failures > 3 {
		t.Errorf("dead target tried %d times in 5 intervals, want backoff (at most 3)", h.Failures)
	}
	for _, p := range st.Written() {
		if p.Labels.Get(LabelInstance) != good {
			t.Errorf("stored %s", p.Labels)
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/targets", nil))
	var page struct{ Targets []Health }
	if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || len(page.Targets) != 2 {
		t.Fatalf("/targets: %v, %s", err, rec.Body)
	}
	if got := page.Targets; got[0].Up == got[1].Up || got[0].Job != "svc" || got[0].Labels["env"] != "test" {
		t.Errorf("/targets: %+v", got)
	}
}

// TestDelta checks the growth stored between scrapes of a cumulative
// profile: nothing at the first scrape, the difference after, and a new
// baseline when a counter goes down.
func TestDelta(t *testing.T) {
	heap := func(allocs, inuse int64, at int64) *profile.Profile {
		fn := &profile.Function{ID: 1, Name: "main.allocate"}
		loc := &profile.Location{ID: 1, Address: 0x1000, Line: []profile.Line{{Function: fn}}}
		return &profile.Profile{
			SampleType: []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_space", Unit: "bytes"}},
			Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{allocs, inuse}}},
			Location:   []*profile.Location{loc}, Function: []*profile.Function{fn}, TimeNanos: at,
		}
	}
	cum := func(vt *profile.ValueType) bool { return cumulativeType("memory", vt) }
	var b baseline
	for i, step := range []struct {
		allocs, inuse int64
		ok            bool
		want          []int64
	}{
		{100, 50, false, nil},            // the baseline
		{160, 20, true, []int64{60, 20}}, // allocs grew by 60; in-use as it is
		{160, 20, true, []int64{0, 20}},  // no new allocations
		{30, 30, false, nil},             // a restart: a new baseline
		{45, 10, true, []int64{15, 10}},
	} {
		got, ok := b.delta(heap(step.allocs, step.inuse, int64(i+1)*1e9), cum)
		if ok != step.ok {
			t.Fatalf("step %d: ok = %v, want %v", i, ok, step.ok)
		}
		if !ok {
			continue
		}
		var vals []int64
		if len(got.Sample) > 0 {
			vals = got.Sample[0].Value
		}
		if len(vals) != len(step.want) || len(vals) > 0 && (vals[0] != step.want[0] || vals[1] != step.want[1]) {
			t.Errorf("step %d: values %v, want %v", i, vals, step.want)
		}
		if got.TimeNanos != int64(i)*1e9 || got.DurationNanos != 1e9 {
			t.Errorf("step %d: covers %d+%d, want the second before", i, got.TimeNanos, got.DurationNanos)
		}
	}
}
