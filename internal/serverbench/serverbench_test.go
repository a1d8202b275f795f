package serverbench_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/serverbench"
	"github.com/perflab/perflab/scrape"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
)

// TestPushesStored pushes two rounds of three instances to a real fleet
// server on a directory store and finds each profile stored in its
// instance's series, at its time, with its CPU total.
func TestPushesStored(t *testing.T) {
	start := time.Now().Add(-time.Minute).Truncate(time.Second)
	f, err := fleetgen.New(fleetgen.Config{Instances: 3, PIE: true, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	pushes, err := serverbench.Pushes(f, 2)
	if err != nil {
		t.Fatal(err)
	}
	st, err := dirstore.Open(t.TempDir(), dirstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := fleet.New(fleet.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	res, err := serverbench.Run(context.Background(), hs.URL, pushes, 4)
	if err != nil || res.Sent != 6 {
		t.Fatalf("Run: %+v, %v; want 6 sent", res, err)
	}
	cpu, _ := store.LookupKind("cpu")
	infos, err := st.Profiles(context.Background(), store.Selection{Type: cpu.Type, Start: start.Add(-time.Hour), End: start.Add(time.Hour)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		labels string
		time   int64
		total  int64
	}
	var got, want []key
	for _, in := range infos {
		got = append(got, key{in.Labels.String(), in.Time.UnixNano(), in.Total})
	}
	for i := range 6 {
		p, err := f.Profile("cpu", i%3, i/3)
		if err != nil {
			t.Fatal(err)
		}
		var total int64
		for _, s := range p.Profile.Sample {
			total += s.Value[1]
		}
		want = append(want, key{p.Labels.With("pyroscope_spy", "gospy").String(), p.Time.UnixNano(), total})
	}
	order := func(a, b key) int { return strings.Compare(a.labels, b.labels)*2 + int(min(max(a.time-b.time, -1), 1)) }
	slices.SortFunc(got, order)
	slices.SortFunc(want, order)
	if !slices.Equal(got, want) {
		t.Errorf("stored:\n%v\nwant:\n%v", got, want)
	}
}

// TestTargets fetches a target's three kinds as a scraper does: the CPU
// profile after the seconds asked, the allocs growing, and the scrape
// configuration naming every target.
func TestTargets(t *testing.T) {
	f, err := fleetgen.New(fleetgen.Config{Samples: 100})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := serverbench.TargetProfiles(f, 2)
	if err != nil {
		t.Fatal(err)
	}
	targets, err := serverbench.ServeTargets(2, ps)
	if err != nil {
		t.Fatal(err)
	}
	defer targets.Close()
	base := "http://" + targets.Addrs[1] + "/debug/pprof/"
	t0 := time.Now()
	if p := get(t, base+"profile?seconds=1"); time.Since(t0) < time.Second || p.DurationNanos != int64(10*time.Second) {
		t.Errorf("the CPU profile came after %v, lasting %v: want after 1 s, 10 s long", time.Since(t0), time.Duration(p.DurationNanos))
	}
	a, b := get(t, base+"allocs"), get(t, base+"allocs")
	// Two profiles in turn: the second is the first plus another's.
	one, _ := f.Profile("allocs", 0, 1)
	if ta, tb, t1 := total(a, 1), total(b, 1), total(one.Profile, 1); ta <= 0 || tb != ta+t1 || a.TimeNanos != 0 {
		t.Errorf("allocs: alloc_space %d then %d, want %d then %d; time %d, want 0", ta, tb, ta, ta+t1, a.TimeNanos)
	}
	if g := get(t, base+"goroutine"); g.SampleType[0].Type != "goroutine" {
		t.Errorf("goroutine: sample type %s", g.SampleType[0].Type)
	}
	if n := targets.Served(); n != 4 {
		t.Errorf("Served() = %d after 4 profiles", n)
	}
	cfg, err := scrape.ParseConfig([]byte(targets.Config("api", 2*time.Second)), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 1 || cfg.Jobs[0].Name != "api" || cfg.Jobs[0].Interval != 2*time.Second ||
		len(cfg.Jobs[0].Static) != 1 || !slices.Equal(cfg.Jobs[0].Static[0].Targets, targets.Addrs) {
		t.Errorf("Config: %+v; want job api every 2s of %v", cfg.Jobs, targets.Addrs)
	}
}

func total(p *profile.Profile, i int) int64 {
	var n int64
	for _, s := range p.Sample {
		n += s.Value[i]
	}
	return n
}

func get(t *testing.T, url string) *profile.Profile {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	p, err := profile.ParseData(body)
	if err != nil {
		t.Fatalf("%s: %s: %v", url, resp.Status, err)
	}
	return p
}

// TestReadUsage reads this process's usage: its CPU time as getrusage
// tells it, to /proc's 10 ms, and its RSS within its peak.
func TestReadUsage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	for deadline := time.Now().Add(5 * time.Second); cputime.Self() < 50*time.Millisecond && time.Now().Before(deadline); {
	}
	before := cputime.Self()
	u, err := serverbench.ReadUsage(os.Getpid())
	after := cputime.Self()
	if err != nil {
		t.Fatal(err)
	}
	if u.CPU < before-20*time.Millisecond || u.CPU > after+20*time.Millisecond {
		t.Errorf("CPU %v; getrusage says %v to %v", u.CPU, before, after)
	}
	if u.RSS <= 1<<20 || u.PeakRSS < u.RSS {
		t.Errorf("RSS %d, peak %d", u.RSS, u.PeakRSS)
	}
}
