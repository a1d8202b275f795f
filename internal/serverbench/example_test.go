package serverbench_test

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/serverbench"
)

// A push names its series as pyroscope-go does: the application, the
// kind, the labels in braces; the body is a multipart form.
func ExampleNewPush() {
	f, _ := fleetgen.New(fleetgen.Config{Instances: 2, Samples: 10})
	p, _ := f.Profile("cpu", 1, 0)
	push, _ := serverbench.NewPush(p)
	q, _ := url.ParseQuery(push.Query)
	fmt.Println(q.Get("name"))
	fmt.Println(q.Get("from"), q.Get("until"))
	fmt.Println(strings.HasPrefix(push.ContentType, "multipart/form-data; boundary="))
	// Output:
	// api.cpu{instance=api-1,version=1.42.0}
	// 1795132803333000000 1795132813333000000
	// true
}
