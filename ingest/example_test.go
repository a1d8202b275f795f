package ingest_test

import (
	"fmt"

	"github.com/perflab/perflab/ingest"
)

// The name Pyroscope's Go SDK sends gives the series' service_name and
// labels; the SDK's private labels are dropped, and an old-style kind
// suffix is cut from the application's name.
func ExampleParseName() {
	n, err := ingest.ParseName("checkout.cpu{env=prod, region=eu-1, __session_id__=2a9bc1e0}")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n.App, n.Kind, n.Labels)
	// Output:
	// checkout process_cpu {env="prod", region="eu-1"}
}
