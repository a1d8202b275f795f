package httpguard_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/perflab/perflab/internal/httpguard"
)

// A request a web page made the browser send to a loopback server passes
// the Host check but not the same-origin one.
func ExampleSameOrigin() {
	r := httptest.NewRequest("GET", "http://127.0.0.1:6060/debug/pprof/profile?seconds=30", nil)
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	fmt.Println(httpguard.LoopbackHost(r))
	fmt.Println(httpguard.SameOrigin(r))
	// Output:
	// true
	// cross-site request refused (Sec-Fetch-Site: cross-site)
}
