package store_test

import (
	"testing"
	"time"

	"github.com/perflab/perflab/store"
)

func TestSelectionPicks(t *testing.T) {
	labels := store.NewLabels("__name__", "process_cpu", "service_name", "api")
	h := store.Header{
		SampleTypes: []store.ValueType{{"samples", "count"}, {"cpu", "nanoseconds"}},
		PeriodType:  store.ValueType{"cpu", "nanoseconds"},
	}
	api, _ := store.ParseSelector(`{service_name="api"}`)
	db, _ := store.ParseSelector(`{service_name="db"}`)
	at := time.Unix(100, 0)
	wrongPeriod := cpuType
	wrongPeriod.PeriodType = "wall"
	for _, tc := range []struct {
		name string
		sel  store.Selection
		want bool
	}{
		{"all", store.Selection{}, true},
		{"range", store.Selection{Type: cpuType, Selector: api, Start: at, End: at.Add(1)}, true},
		{"end excluded", store.Selection{Type: cpuType, End: at}, false},
		{"before start", store.Selection{Type: cpuType, Start: at.Add(1)}, false},
		{"zero end", store.Selection{Type: cpuType, Start: at}, true},
		{"other series", store.Selection{Type: cpuType, Selector: db}, false},
		{"other kind", store.Selection{Type: allocSpace}, false},
		{"other period type", store.Selection{Type: wrongPeriod}, false},
	} {
		if got := tc.sel.Picks(labels, at, &h); got != tc.want {
			t.Errorf("%s: Picks = %v, want %v", tc.name, got, tc.want)
		}
	}
}
