package fleetgen_test

import (
	"fmt"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// Twenty seconds of two instances of the default service: their CPU profiles
// in time order, with their series labels.
func ExampleFleet_Each() {
	f, err := fleetgen.New(fleetgen.Config{Instances: 2})
	if err != nil {
		panic(err)
	}
	err = f.Each("cpu", 3, func(p store.Profile) error {
		fmt.Println(p.Time.Format("15:04:05.000"), p.Labels)
		return nil
	})
	if err != nil {
		panic(err)
	}
	// Output:
	// 00:00:00.000 {__name__="process_cpu", instance="api-0", service_name="api", version="1.42.0"}
	// 00:00:03.333 {__name__="process_cpu", instance="api-1", service_name="api", version="1.42.0"}
	// 00:00:10.000 {__name__="process_cpu", instance="api-0", service_name="api", version="1.42.0"}
	// 00:00:13.333 {__name__="process_cpu", instance="api-1", service_name="api", version="1.42.0"}
	// 00:00:20.000 {__name__="process_cpu", instance="api-0", service_name="api", version="1.42.0"}
	// 00:00:23.333 {__name__="process_cpu", instance="api-1", service_name="api", version="1.42.0"}
}
