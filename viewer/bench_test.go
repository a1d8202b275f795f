package viewer_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/storebench"
	"github.com/perflab/perflab/viewer"
)

// BenchmarkWeekFlamegraph measures the viewer's answer to the flame
// graph of a week of one service (internal/storebench's store: 60,480
// 10-second CPU profiles, kept in $TMPDIR/perflab-storebench, built on
// first use, which takes minutes): "cold" from a new viewer (merge, the
// web.Server, the page with its first flame graph view), "cached" from
// one that answered it before. scripts/bench-store measures the same in
// Chromium, from the server's start to the page drawn.
func BenchmarkWeekFlamegraph(b *testing.B) {
	st, m := storebench.OpenWeek(b)
	sel := m.Last(7 * 24 * time.Hour)
	q := url.Values{"type": {"cpu"}, "from": {sel.Start.Format(time.RFC3339)}, "until": {sel.End.Format(time.RFC3339)}}
	path := "/ui/flamegraph?" + q.Encode()
	get := func(h http.Handler) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s = %d: %.300s", path, rec.Code, rec.Body)
		}
	}
	now := func() time.Time { return m.Now() }
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			get(viewer.New(st, viewer.Options{Now: now}))
		}
	})
	b.Run("cached", func(b *testing.B) {
		h := viewer.New(st, viewer.Options{Now: now})
		get(h)
		for b.Loop() {
			get(h)
		}
	})
}
