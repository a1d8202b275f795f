package ingest

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// discard is a store that checks what it is given, as a store's Write
// does, and keeps nothing, so that the benchmark measures ingest alone.
type discard struct{ store.Store }

func (discard) Write(_ context.Context, ps ...store.Profile) error {
	for _, p := range ps {
		if err := p.Labels.Check(store.Limits{}); err != nil {
			return err
		}
	}
	return nil
}

// tenSecondCPU is a generated 10-second CPU profile of a busy service, as
// one instance pushes it every 10 s: 1,000 samples at 100 Hz over a few
// hundred stacks, with inlined frames and pprof labels.
var tenSecondCPU = profgen.Config{Seed: 7, Samples: 1000, Locations: 1500, Functions: 400, MaxDepth: 40, InlinePercent: 20, LabelPercent: 10, SourceRoot: "/src"}

// BenchmarkIngest posts 10-second CPU profiles to /ingest, as
// Pyroscope's Go SDK sends them, straight to the handler (no network, no
// client), and reports profiles/s per core of the CPU time the process
// spent: the goal is 500 or more.
func BenchmarkIngest(b *testing.B) {
	p, err := profgen.Generate(tenSecondCPU)
	if err != nil {
		b.Fatal(err)
	}
	p.TimeNanos, p.DurationNanos = time.Now().UnixNano(), 10e9
	body, ct := formBody(b, encode(b, p), nil)
	h := NewHandler(discard{storetest.NewReference(store.Limits{})}, Options{})
	target := PathIngest + "?" + ingestQuery("checkout{env=prod,pod=checkout-7d9f}", time.Now(), time.Now().Add(10*time.Second)).Encode()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	start := cputime.Self()
	b.ResetTimer()
	for range b.N {
		r := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(body))
		r.Header.Set("Content-Type", ct)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
	b.StopTimer()
	if cpu := cputime.Self() - start; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "profiles/s/core")
	}
}
