package storebench_test

import (
	"fmt"
	"time"

	"github.com/perflab/perflab/internal/storebench"
)

// The benchmarks ask about the last hours or days up to Now, 7 minutes
// before the end of the store's profiles, as a user asks at any moment.
func ExampleManifest_Last() {
	start := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	m := &storebench.Manifest{Days: 30, Profiles: 30 * storebench.PerDay, Start: start, End: start.AddDate(0, 0, 30)}
	sel := m.Last(8 * time.Hour)
	fmt.Println(sel.Type, sel.Start.Format(time.DateTime), "to", sel.End.Format(time.DateTime))
	// Output:
	// process_cpu:cpu:nanoseconds:cpu:nanoseconds 2026-12-19 15:53:00 to 2026-12-19 23:53:00
}
