package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
)

// BenchmarkUploadBase measures choosing a base in the UI on the medium
// profile: the upload of a base of the same size (parse, copy of the
// profile, merge, index) and the first flame graph of the comparison.
// Each iteration uploads a base the server does not hold: 8 variants
// (their comments differ) cycle, more than the server keeps.
func BenchmarkUploadBase(b *testing.B) {
	s, _ := benchServer(b, medium)
	c := medium
	c.Seed++
	p, err := profgen.Generate(c)
	if err != nil {
		b.Fatal(err)
	}
	var bases [][]byte
	for i := range 8 {
		p.Comments = []string{fmt.Sprint("variant ", i)}
		var buf bytes.Buffer
		p.Write(&buf)
		bases = append(bases, buf.Bytes())
	}
	for i := 0; b.Loop(); i++ {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "http://127.0.0.1/ui/api/base", bytes.NewReader(bases[i%len(bases)])))
		var info struct{ ID string }
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &info) != nil {
			b.Fatalf("upload: %d %s", w.Code, w.Body)
		}
		w = httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1/ui/api/flame?base="+info.ID, nil))
		if w.Code != http.StatusOK {
			b.Fatalf("flame: %d %s", w.Code, w.Body)
		}
	}
}
