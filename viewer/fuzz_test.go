package viewer

import (
	"net/url"
	"testing"
	"time"
)

// FuzzResolve reads any query string as a request's selection: no panic,
// and a request it accepts has a range that begins before it ends and a
// key that names it.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		"", "from=now-1h", "from=-7d&until=now-1d", "query=%7Bservice_name%3D%22api%22%7D&type=heap",
		"from=2026-11-20T00:00:00Z&until=2026-11-20T01:00:00Z", "from=1&until=0", "id=abc",
		"base_from=now-2h&base_until=now-1h", "type=nosuch", "from=now-99999999d",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		q, err := url.ParseQuery(s)
		if err != nil {
			return
		}
		req, err := resolve(q, now)
		if err != nil {
			return
		}
		if req.key == "" {
			t.Fatalf("%q: no key", s)
		}
		if req.id == "" && !req.sel.Start.Before(req.sel.End) {
			t.Fatalf("%q: the range [%v, %v) is empty", s, req.sel.Start, req.sel.End)
		}
		if req.base != nil && !req.base.Start.Before(req.base.End) {
			t.Fatalf("%q: the base's range [%v, %v) is empty", s, req.base.Start, req.base.End)
		}
	})
}
