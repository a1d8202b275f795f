package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// FuzzUploadBase posts any body, raw or as a multipart form, as a base
// profile: the server answers 200 with the base, 400 with the cause or
// 413 over the size limit, never panics, and keeps serving the base's
// views when it took one.
func FuzzUploadBase(f *testing.F) {
	f.Add([]byte("not a profile"), "application/octet-stream")
	f.Add([]byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"), "application/octet-stream")
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x\"\r\n\r\nxx\r\n--b--\r\n"), "multipart/form-data; boundary=b")
	var buf bytes.Buffer
	cpuProfile().Write(&buf)
	f.Add(buf.Bytes(), "application/octet-stream")
	f.Add([]byte("--- mutex:\ncycles/second=1\nsampling period=1\n1 1 @ 0x1 0x2\n"), "text/plain")
	s, err := web.New(cpuProfile(), web.Options{Report: report.DefaultOptions(), MaxBytes: 1 << 20})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/ui/api/base", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		switch w.Code {
		case http.StatusOK:
			var b struct{ ID string }
			if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil || b.ID == "" {
				t.Fatalf("upload answered %s", w.Body)
			}
			r := httptest.NewRecorder()
			s.ServeHTTP(r, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/ui/api/flame?base="+b.ID, nil))
			if r.Code != http.StatusOK && r.Code != http.StatusBadRequest {
				t.Errorf("flame graph of the base: status %d: %s", r.Code, r.Body)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Errorf("status %d: %s", w.Code, w.Body)
		}
	})
}
