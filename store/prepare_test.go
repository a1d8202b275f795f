package store_test

import (
	"errors"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/store"
)

// TestPrepare checks each refusal of Prepare, the first that applies,
// and what it makes of a good profile: labels sorted, the time of the
// profile's TimeNanos in UTC, the ID of its series, time and content.
func TestPrepare(t *testing.T) {
	good := store.Profile{Labels: store.Labels{{"service_name", "api"}, {"__name__", "process_cpu"}}, Profile: reporttest.OneSample("main.go")}
	at := time.Date(2026, 11, 20, 1, 2, 3, 4, time.FixedZone("x", 3600))
	good.Profile.TimeNanos = at.UnixNano()
	big := good
	big.Profile = good.Profile.Copy()
	big.Profile.Sample = append(big.Profile.Sample, big.Profile.Sample[0])
	big.Profile.TimeNanos = 0 // too many samples is told first
	noTime := good
	noTime.Profile = good.Profile.Copy()
	noTime.Profile.TimeNanos = 0
	invalid := good
	invalid.Profile = good.Profile.Copy()
	invalid.Profile.Sample[0].Value = nil
	limits := store.Limits{MaxProfileSamples: 1}
	for _, tc := range []struct {
		name string
		p    store.Profile
		want error
	}{
		{"no service_name, and no profile", store.Profile{Labels: store.NewLabels("__name__", "x")}, store.ErrLimit},
		{"no profile", store.Profile{Labels: good.Labels}, store.ErrInvalid},
		{"over MaxProfileSamples, and no time", big, store.ErrLimit},
		{"no time", noTime, store.ErrInvalid},
		{"invalid", invalid, store.ErrInvalid},
	} {
		if _, err := store.Prepare(tc.p, limits); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	x, err := store.Prepare(good, limits)
	if err != nil {
		t.Fatal(err)
	}
	want := store.NewLabels("__name__", "process_cpu", "service_name", "api")
	if x.Labels.Compare(want) != 0 || !x.Time.Equal(at) || x.Time.Location() != time.UTC || x.ID != store.ProfileID(want, at.UTC(), x.Split) {
		t.Errorf("Prepare: labels %v, time %v, ID %s", x.Labels, x.Time, x.ID)
	}
}
