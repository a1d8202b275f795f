package ingest

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/store"
)

// FuzzParseName checks that any name gives labels or a one-line error,
// and that the labels it gives are valid and sorted.
func FuzzParseName(f *testing.F) {
	for _, s := range []string{"api", "api{}", "api.cpu{env=prod, region = eu ,}", "a/b-c{__session_id__=x,k=}", "api{a=b", "{a=b}", "api{a=b}x", "api{9=1}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseName(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of two lines: %q", err)
			}
			return
		}
		if n.App == "" {
			t.Fatalf("ParseName(%q): empty application", s)
		}
		for i, l := range n.Labels {
			if !store.ValidLabelName(l.Name) || l.Value == "" || strings.HasPrefix(l.Name, "__") || i > 0 && n.Labels[i-1].Name >= l.Name {
				t.Fatalf("ParseName(%q): labels %s", s, n.Labels)
			}
		}
	})
}

// FuzzParseIngest checks that any /ingest request (query, Content-Type
// and body) is read or refused with a one-line error, within a quota of
// twice its body.
func FuzzParseIngest(f *testing.F) {
	body, ct := formBody(f, []byte("\x1f\x8b profile"), map[string]*sampleTypeConfig{"contentions": {DisplayName: "block_count"}})
	f.Add("name=api%7Bpod%3Da%7D&from=1772359200&until=1772359210&spyName=gospy", ct, body)
	f.Add("name=api&format=pprof", "", []byte("profile"))
	f.Add("name=api&from=now-1h", "multipart/form-data; boundary=x", []byte("--x\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\nP\r\n--x--\r\n"))
	f.Add("name=api", "multipart/form-data; boundary=x", []byte("--x\r\nContent-Disposition: form-data; name=\"prev_profile\"\r\n\r\nP\r\n--x--\r\n"))
	f.Fuzz(func(t *testing.T, query, contentType string, body []byte) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		req, err := parseIngest(q, contentType, body, pprofproto.Limit(2*int64(len(body))+128<<10), time.Unix(1772359200, 0))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of two lines: %q", err)
			}
			return
		}
		if req.Profile == nil || len(req.Profile) > len(body) {
			t.Fatalf("profile of %d bytes from a body of %d", len(req.Profile), len(body))
		}
	})
}
