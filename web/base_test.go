package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// baseProfile is cpuProfile with main.helper's share halved and
// main.work's own time doubled: a base to compare with.
func baseProfile() *profile.Profile {
	p := cpuProfile()
	p.Sample[0].Value = []int64{3, 30e6}
	p.Sample[1].Value = []int64{4, 40e6}
	return p
}

func encode(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// post sends body to path with the headers h and returns status and body.
func post(t *testing.T, srv *httptest.Server, path, contentType string, body []byte, h map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	for k, v := range h {
		if k == "Host" {
			req.Host = v
		}
		req.Header.Set(k, v)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type baseInfo struct {
	ID, Name string
	Samples  int
}

func upload(t *testing.T, srv *httptest.Server, data []byte) baseInfo {
	t.Helper()
	code, body := post(t, srv, "/ui/api/base?name=old.pb.gz", "application/octet-stream", data,
		map[string]string{"Origin": srv.URL, "Sec-Fetch-Site": "same-origin"})
	var b baseInfo
	if code != 200 || json.Unmarshal([]byte(body), &b) != nil || b.ID == "" {
		t.Fatalf("upload: %d %s", code, body)
	}
	return b
}

// TestUploadedBase checks that the views of a URL naming an uploaded base
// are those of the profile compared with it as -diff_base compares: the
// flame graph is package flame's tree of profiles.ApplyBase's result and
// the top rows report's.
func TestUploadedBase(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	b := upload(t, srv, encode(t, baseProfile()))
	if b.Name != "old.pb.gz" || b.Samples != 3 {
		t.Errorf("upload answered %+v", b)
	}
	merged, err := profiles.ApplyBase(cpuProfile(), baseProfile(), true)
	if err != nil {
		t.Fatal(err)
	}
	want := serve(t, merged, web.Options{Report: report.DefaultOptions()})
	for _, path := range []string{"/ui/api/flame?reverse=1", "/ui/api/flame?normalize=1", "/ui/api/top?si=samples"} {
		_, got := get(t, srv, path+"&base="+b.ID)
		_, w := get(t, want, path)
		if got != w {
			t.Errorf("%s&base=%s:\n%s\nwant (-diff_base)\n%s", path, b.ID, got, w)
		}
		if _, plain := get(t, srv, path); plain == w {
			t.Errorf("%s without the base equals the diff", path)
		}
	}
	tree, err := flame.Build(merged, report.DefaultOptions())
	if err != nil || !tree.Diff {
		t.Fatalf("flame.Build of the merged profile: diff %v, %v", tree != nil && tree.Diff, err)
	}
	code, page := get(t, srv, "/ui/top?base="+b.ID)
	if code != 200 || !strings.Contains(page, `data-diff="true"`) || !strings.Contains(page, `href="/ui/flamegraph?base=`+b.ID) {
		t.Errorf("/ui/top?base=%s: status %d; not a diff page whose menu keeps the base", b.ID, code)
	}
	_, list := get(t, srv, "/ui/api/base")
	if !strings.Contains(list, b.ID) {
		t.Errorf("/ui/api/base does not list %s: %s", b.ID, list)
	}
	if code, _ := get(t, srv, "/ui/api/base?base="+b.ID); code != 200 {
		t.Errorf("/ui/api/base?base=%s: %d", b.ID, code)
	}
}

// TestUploadBaseMultipart uploads the base as a browser form would.
func TestUploadBaseMultipart(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("note", "x")
	fw, _ := mw.CreateFormFile("file", "<img src=x onerror=alert(1)>.pprof")
	fw.Write(encode(t, baseProfile()))
	mw.Close()
	code, body := post(t, srv, "/ui/api/base", mw.FormDataContentType(), buf.Bytes(), nil)
	var b baseInfo
	if code != 200 || json.Unmarshal([]byte(body), &b) != nil || b.Name != "<img src=x onerror=alert(1)>.pprof" {
		t.Fatalf("multipart upload: %d %s", code, body)
	}
	code, page := get(t, srv, "/ui/top?base="+b.ID)
	if code != 200 || strings.Contains(page, "<img") || !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;.pprof") {
		t.Errorf("/ui/top?base=%s: status %d; the file name is not shown escaped in the title", b.ID, code)
	}
	if b2 := upload(t, srv, encode(t, baseProfile())); b2.ID != b.ID {
		t.Errorf("the same bytes got IDs %s and %s", b.ID, b2.ID)
	}
}

// TestUploadBaseRefused checks the uploads that must be refused, each
// with its status, and that the server keeps serving after them.
func TestUploadBaseRefused(t *testing.T) {
	good := encode(t, baseProfile())
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions(), MaxBytes: 8 * int64(len(good))})
	big := append(bytes.Repeat([]byte{0}, 8*len(good)), good...)
	other := cpuProfile()
	other.SampleType = []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}, {Type: "inuse", Unit: "bytes"}}
	for _, tc := range []struct {
		name    string
		body    []byte
		headers map[string]string
		status  int
		want    string
	}{
		{"cross-site", good, map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-site"},
		{"same-site", good, map[string]string{"Sec-Fetch-Site": "same-site"}, 403, "cross-site"},
		{"foreign origin", good, map[string]string{"Origin": "http://evil.example"}, 403, "cross-site"},
		{"rebinding host", good, map[string]string{"Host": "evil.example"}, 403, "host not allowed"},
		{"too large", big, nil, 413, "too large"},
		{"garbage", []byte("this is not a profile\x00\x01"), nil, 400, "base upload:"},
		{"empty", nil, nil, 400, "empty"},
		{"gzip garbage", []byte("\x1f\x8b\x08\x00garbage"), nil, 400, "base upload:"},
		{"other sample types", encode(t, other), nil, 400, "comparing with"},
	} {
		code, body := post(t, srv, "/ui/api/base", "application/octet-stream", tc.body, tc.headers)
		if code != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: status %d %q, want %d with %q", tc.name, code, body, tc.status, tc.want)
		}
	}
	if code, _ := get(t, srv, "/ui/flamegraph?x=1"); code != 200 {
		t.Errorf("after the refused uploads the server answers %d", code)
	}
	if b := upload(t, srv, good); b.ID == "" {
		t.Error("a good upload after the refused ones failed")
	}
	if code, _ := get(t, srv, "/ui/top?base=ffff"); code != 404 {
		t.Errorf("unknown base: status %d", code)
	}
	code, page := get(t, srv, "/ui/top?base=%3Cscript%3E&n=3")
	if code != 404 || strings.Contains(page, "<script>") || !strings.Contains(page, `href="/ui/top?n=3"`) {
		t.Errorf("unknown hostile base: status %d, page %s", code, page)
	}
}

// TestUploadBaseOverDiffBase checks that a profile already compared with
// -diff_base refuses another base.
func TestUploadBaseOverDiffBase(t *testing.T) {
	merged, err := profiles.ApplyBase(cpuProfile(), baseProfile(), true)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, merged, web.Options{Report: report.DefaultOptions()})
	code, body := post(t, srv, "/ui/api/base", "application/octet-stream", encode(t, baseProfile()), nil)
	if code != 400 || !strings.Contains(body, "already compared") {
		t.Errorf("status %d %s", code, body)
	}
}

// TestUploadBaseConcurrentAndEviction uploads bases from several
// goroutines while their views are read (one upload is read at a time:
// the others get 429 and try again), then more bases than the server
// holds: the oldest is dropped and its URLs say so.
func TestUploadBaseConcurrentAndEviction(t *testing.T) {
	srv := serve(t, cpuProfile(), web.Options{Report: report.DefaultOptions()})
	var ids []string
	for i := range 6 {
		p := baseProfile()
		p.Sample[2].Value = []int64{int64(i + 1), int64(i+1) * 10e6}
		data := encode(t, p)
		done := make(chan string, 3)
		for range 3 {
			go func() {
				resp, err := srv.Client().Post(srv.URL+"/ui/api/base", "", bytes.NewReader(data))
				for ; err == nil && resp.StatusCode == http.StatusTooManyRequests; resp, err = srv.Client().Post(srv.URL+"/ui/api/base", "", bytes.NewReader(data)) {
					resp.Body.Close()
					time.Sleep(10 * time.Millisecond)
				}
				if err != nil {
					done <- ""
					return
				}
				defer resp.Body.Close()
				var b baseInfo
				json.NewDecoder(resp.Body).Decode(&b)
				if b.ID != "" {
					http.Get(srv.URL + "/ui/api/flame?base=" + b.ID)
				}
				done <- b.ID
			}()
		}
		a, b, c := <-done, <-done, <-done
		if a == "" || a != b || b != c {
			t.Fatalf("base %d: concurrent uploads of the same bytes got IDs %q %q %q", i, a, b, c)
		}
		ids = append(ids, a)
	}
	_, body := get(t, srv, "/ui/api/base")
	var list []baseInfo
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list) == 0 || len(list) >= len(ids) {
		t.Fatalf("held bases %s (%v): want some dropped of %d", body, err, len(ids))
	}
	for i, id := range ids {
		code, _ := get(t, srv, "/ui/api/top?base="+id)
		held := i >= len(ids)-len(list)
		if held && list[i-(len(ids)-len(list))].ID != id {
			t.Errorf("base %d is held but not listed in order", i)
		}
		if (code == 200) != held {
			t.Errorf("base %d of %d: status %d, held %v", i, len(ids), code, held)
		}
	}
}
