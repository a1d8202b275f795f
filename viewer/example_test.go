package viewer_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
	"github.com/perflab/perflab/viewer"
)

// ExampleNew serves the top view of a service's CPU profiles over an
// hour, then asks for a service the store does not hold.
func ExampleNew() {
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(context.Background(), storetest.Fixture()...); err != nil {
		panic(err)
	}
	h := viewer.New(ref, viewer.Options{})
	q := url.Values{"query": {`{service_name="db"}`}, "type": {"cpu"},
		"from": {"2026-11-20T00:00:00Z"}, "until": {"2026-11-20T01:00:00Z"}}
	for _, query := range []string{`{service_name="db"}`, `{service_name="web"}`} {
		q.Set("query", query)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/ui/top?"+q.Encode(), nil))
		fmt.Println(query, rec.Code, strings.Contains(rec.Body.String(), `<table id="top"`))
	}
	// Output:
	// {service_name="db"} 200 true
	// {service_name="web"} 404 false
}

// ExampleStep shows the chart's step, to which relative ranges are
// aligned, for the range presets.
func ExampleStep() {
	for _, d := range []time.Duration{15 * time.Minute, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour} {
		fmt.Println(d, viewer.Step(d))
	}
	// Output:
	// 15m0s 10s
	// 1h0m0s 15s
	// 24h0m0s 6m0s
	// 168h0m0s 42m0s
}
