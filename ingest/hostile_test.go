package ingest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// gzipBomb returns gzip data that inflates to n zero bytes.
func gzipBomb(n int) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for ; n > 0; n -= len(zero) {
		zw.Write(zero[:min(n, len(zero))])
	}
	zw.Close()
	return buf.Bytes()
}

// TestIngestHostile sends pushes that must be refused with one line and
// the right status, and checks that nothing is stored and that the memory
// budget is all given back.
func TestIngestHostile(t *testing.T) {
	h, st, srv := newServer(t, Options{MaxProfileBytes: 4 << 20, MaxRequestBytes: 4 << 20})
	good := encode(t, profileOf(t, "process_cpu"))
	var many strings.Builder
	many.WriteString("api{")
	for i := range 10000 {
		fmt.Fprintf(&many, "l%d=v,", i)
	}
	many.WriteString("}")
	weird := profileOf(t, "goroutines")
	weird.SampleType = []*profile.ValueType{{Type: "bananas", Unit: "count"}}
	bomb := gzipBomb(16 << 20) // 16 MiB of zeros in about 16 KiB
	for _, tc := range []struct {
		what   string
		name   string
		query  url.Values // added to the SDK's query
		prof   []byte
		raw    []byte // the body as is, instead of a form of prof
		ct     string
		status int
		msg    string
	}{
		{what: "truncated gzip", name: "api", prof: good[:len(good)/2], status: 400, msg: "truncated"},
		{what: "truncated proto", name: "api", prof: gzipped(ungzip(t, good)[:40]), status: 400, msg: "profile:"},
		{what: "not a profile", name: "api", prof: []byte("hello, world\n"), status: 400, msg: "not a profile"},
		{what: "gzip bomb", name: "api", prof: bomb, status: 413, msg: "inflates to more than 4194304 bytes, the limit per profile"},
		{what: "gzip bomb with a lying trailer", name: "api", prof: lyingTrailer(bomb), status: 400, msg: "corrupt gzip data"},
		{what: "10,000 labels", name: many.String(), prof: good, status: 400, msg: "more than"},
		{what: "bad profile type", name: "api", prof: encode(t, weird), status: 400, msg: "profile type: sample types bananas/count"},
		{what: "bad application name", name: "api server{}", prof: good, status: 400, msg: "not allowed in an application name"},
		{what: "bad label name", name: "api{9x=1}", prof: good, status: 400, msg: "label name"},
		{what: "no name", name: "", prof: good, status: 400, msg: "application name"},
		{what: "unclosed labels", name: "api{a=b", prof: good, status: 400, msg: "no }"},
		{what: "label value over the limit", name: "api{a=" + strings.Repeat("v", 5000) + "}", prof: good, status: 400, msg: "value of 5000 bytes"},
		{what: "bad time", name: "api", query: url.Values{"from": {"yesterday"}}, prof: good, status: 400, msg: "from"},
		{what: "other format", name: "api", query: url.Values{"format": {"jfr"}}, prof: good, status: 400, msg: "pprof profiles only"},
		{what: "not a form", name: "api", raw: good, ct: "application/octet-stream", status: 400, msg: "multipart/form-data"},
		{what: "broken form", name: "api", raw: []byte("--x\r\nContent-Disp"), ct: "multipart/form-data; boundary=x", status: 400, msg: "multipart"},
		{what: "no profile part", name: "api", raw: []byte("--x--\r\n"), ct: "multipart/form-data; boundary=x", status: 400, msg: "no profile part"},
		{what: "body over the limit", name: "api", raw: make([]byte, 5<<20), ct: "multipart/form-data; boundary=x", status: 413, msg: "more than the limit"},
	} {
		q := ingestQuery(tc.name, time.Now(), time.Now())
		for k, v := range tc.query {
			q[k] = v
		}
		body, ct := tc.raw, tc.ct
		if body == nil {
			body, ct = formBody(t, tc.prof, nil)
		}
		status, msg := post(t, srv, PathIngest, q, ct, body)
		if status != tc.status || !strings.Contains(msg, tc.msg) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%s: %d %q, want %d and one line with %q", tc.what, status, clip(msg), tc.status, tc.msg)
		}
	}
	if n := len(st.Written()); n != 0 {
		t.Errorf("%d profiles stored, want none", n)
	}
	if n := h.InUse(); n != 0 {
		t.Errorf("%d bytes of the budget still held after the requests", n)
	}
}

// TestIngestHugeName sends a 100 MB name in the query, as a hostile
// client could: net/http refuses the request line before the handler
// sees it, and nothing is stored.
func TestIngestHugeName(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	body, ct := formBody(t, encode(t, profileOf(t, "process_cpu")), nil)
	req, _ := http.NewRequest("POST", srv.URL+PathIngest+"?name=api{a="+strings.Repeat("v", 100<<20)+"}", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("status %d, want a refusal", resp.StatusCode)
		}
	}
	if n := len(st.Written()); n != 0 {
		t.Errorf("%d profiles stored, want none", n)
	}
}

// TestIngestBudget checks that a push that would take more than the
// memory budget gets 429 while others hold it, and passes once they are
// done.
func TestIngestBudget(t *testing.T) {
	h, st, srv := newServer(t, Options{MemoryBudget: 64 << 10})
	prof := runtimeProfile(t, "allocs")
	body, ct := formBody(t, prof, nil)
	held := &reservation{g: &h.mem}
	if err := held.take(h.opts.MemoryBudget - 1); err != nil {
		t.Fatal(err)
	}
	status, msg := post(t, srv, PathIngest, ingestQuery("api", time.Now(), time.Now()), ct, body)
	if status != http.StatusTooManyRequests || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "memory budget") {
		t.Errorf("over the budget: %d %q, want 429", status, msg)
	}
	held.release()
	h.mem.limit = 16 << 20
	if status, msg := post(t, srv, PathIngest, ingestQuery("api", time.Now(), time.Now()), ct, body); status != http.StatusOK {
		t.Errorf("within the budget: %d %q", status, msg)
	}
	if n := len(st.Written()); n != 1 {
		t.Errorf("%d profiles stored, want 1", n)
	}
	if n := h.InUse(); n != 0 {
		t.Errorf("%d bytes still held", n)
	}
}

// ungzip returns data inflated.
func ungzip(t testing.TB, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lyingTrailer returns gzip data whose trailer says it inflates to 1000
// bytes.
func lyingTrailer(data []byte) []byte {
	out := bytes.Clone(data)
	copy(out[len(out)-4:], []byte{0xe8, 3, 0, 0})
	return out
}
