package web_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/perflab/perflab/web"
)

// FuzzTimelineQuery sends any query string to the timeline's endpoints
// on a real trace: 200, or 400 naming the parameter, never a panic or
// another status.
func FuzzTimelineQuery(f *testing.F) {
	f.Add("/ui/timeline/tiles", "start=0&end=1000000&width=100")
	f.Add("/ui/timeline/tiles", "start=5&end=4&width=0")
	f.Add("/ui/timeline/tiles", "width=8192&g=1,2,3")
	f.Add("/ui/timeline/stack", "t=1000&p=0")
	f.Add("/ui/timeline/stack", "t=99999999999999&p=7")
	f.Add("/ui/trace", "")
	data, err := os.ReadFile("../exectrace/testdata/small.trace")
	if err != nil {
		f.Fatal(err)
	}
	s, err := web.NewTrace(f.Context(), bytes.NewReader(data), int64(len(data)), web.TraceOptions{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, query string) { fuzzQuery(t, s, path, query) })
}
