package ingest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
)

// TestIngestRuntimeProfiles posts the test process's own profiles as
// Pyroscope's Go SDK does and checks the series each is stored in: the
// kind from the profile's sample types (the mutex and block profiles told
// apart by the SDK's sample_type_config), service_name from the name, the
// name's labels without the private ones, and the profile as it was sent.
func TestIngestRuntimeProfiles(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	from := time.Now().Add(-10 * time.Second).Truncate(time.Second)
	name := "checkout{env=prod, __session_id__=abc123, region=eu-1,}"
	for _, tc := range []struct {
		prof   []byte
		config map[string]*sampleTypeConfig
		kind   string
	}{
		{cpuProfile(t, 100*time.Millisecond), nil, "process_cpu"},
		{runtimeProfile(t, "allocs"), nil, "memory"},
		{runtimeProfile(t, "goroutine"), map[string]*sampleTypeConfig{"goroutine": {DisplayName: "goroutines"}}, "goroutines"},
		{runtimeProfile(t, "mutex"), map[string]*sampleTypeConfig{"contentions": {DisplayName: "mutex_count"}, "delay": {DisplayName: "mutex_duration"}}, "mutex"},
		{runtimeProfile(t, "block"), map[string]*sampleTypeConfig{"contentions": {DisplayName: "block_count"}, "delay": {DisplayName: "block_duration"}}, "block"},
	} {
		body, ct := formBody(t, tc.prof, tc.config)
		status, msg := post(t, srv, PathIngest, ingestQuery(name, from, from.Add(10*time.Second)), ct, body)
		if status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.kind, status, msg)
		}
		got := st.Written()
		p := got[len(got)-1]
		want := store.NewLabels("__name__", tc.kind, "service_name", "checkout", "env", "prod", "region", "eu-1", "pyroscope_spy", "gospy")
		if p.Labels.Compare(want) != 0 {
			t.Errorf("%s: labels %s, want %s", tc.kind, p.Labels, want)
		}
		if p.Time.IsZero() || time.Since(p.Time) > time.Minute {
			t.Errorf("%s: time %v, want the profile's own", tc.kind, p.Time)
		}
		if n := len(p.Profile.SampleType); n == 0 {
			t.Errorf("%s: stored with no sample types", tc.kind)
		}
	}
	if n := len(st.Written()); n != 5 {
		t.Errorf("%d profiles stored, want 5", n)
	}
}

// TestIngestNameKind checks that an old-style APP.KIND name tells a block
// profile from a mutex profile when no sample_type_config does, and that
// the suffix is not part of service_name.
func TestIngestNameKind(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	for _, tc := range []struct{ name, kind string }{
		{"api.block_duration{}", "block"},
		{"api.mutex_count", "mutex"},
		{"api", "mutex"}, // Pyroscope's default for contentions/delay
	} {
		body, ct := formBody(t, runtimeProfile(t, "block"), nil)
		if status, msg := post(t, srv, PathIngest, ingestQuery(tc.name, time.Now(), time.Now()), ct, body); status != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.name, status, msg)
		}
		got := st.Written()
		p := got[len(got)-1]
		if kindOf(p) != tc.kind || p.Labels.Get("service_name") != "api" {
			t.Errorf("name %s: stored as %s, want __name__=%s, service_name=api", tc.name, p.Labels, tc.kind)
		}
	}
}

// TestIngestTime checks the times of a profile that has none of its own,
// in the units Pyroscope's clients send them (seconds, milliseconds,
// nanoseconds).
func TestIngestTime(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	p := profileOf(t, "process_cpu")
	p.TimeNanos, p.DurationNanos = 0, 0
	from := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, q := range []struct{ from, until string }{
		{"1772359200", "1772359210"},
		{"1772359200000", "1772359210000"},
		{"1772359200000000000", "1772359210000000000"},
	} {
		body, ct := formBody(t, encode(t, p), nil)
		query := ingestQuery("api", time.Time{}, time.Time{})
		query.Set("from", q.from)
		query.Set("until", q.until)
		if status, msg := post(t, srv, PathIngest, query, ct, body); status != http.StatusOK {
			t.Fatalf("from=%s: status %d: %s", q.from, status, msg)
		}
		got := st.Written()
		sp := got[len(got)-1]
		if !sp.Time.Equal(from) || sp.Profile.DurationNanos != 10e9 {
			t.Errorf("from=%s until=%s: stored at %v for %dns, want %v for 10s", q.from, q.until, sp.Time.UTC(), sp.Profile.DurationNanos, from)
		}
	}
}

// TestIngestBareProfile posts a profile as the body with format=pprof.
func TestIngestBareProfile(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	q := ingestQuery("api{pod=a}", time.Now(), time.Now())
	q.Set("format", "pprof")
	if status, msg := post(t, srv, PathIngest, q, "application/octet-stream", runtimeProfile(t, "goroutine")); status != http.StatusOK {
		t.Fatalf("status %d: %s", status, msg)
	}
	if got := st.Written(); len(got) != 1 || kindOf(got[0]) != "goroutines" || got[0].Labels.Get("pod") != "a" {
		t.Fatalf("stored %v", got)
	}
}

// TestIngestStoreErrors checks that the store's back-pressure is 429 and
// its limits 400.
func TestIngestStoreErrors(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	body, ct := formBody(t, runtimeProfile(t, "goroutine"), nil)
	st.SetBusy(true)
	status, msg := post(t, srv, PathIngest, ingestQuery("api", time.Now(), time.Now()), ct, body)
	if status != http.StatusTooManyRequests || !strings.Contains(msg, "busy") {
		t.Errorf("busy store: %d %q, want 429", status, msg)
	}
	_, st, srv = newServer(t, Options{Limits: store.Limits{MaxProfileSamples: 1}})
	p := profileOf(t, "process_cpu")
	body, ct = formBody(t, encode(t, p), nil)
	status, msg = post(t, srv, PathIngest, ingestQuery("api", time.Now(), time.Now()), ct, body)
	if status != http.StatusBadRequest || !strings.Contains(msg, "more than the limit of 1 per profile") {
		t.Errorf("over the sample limit: %d %q, want 400", status, msg)
	}
	if n := len(st.Written()); n != 0 {
		t.Errorf("%d profiles stored, want none", n)
	}
}
