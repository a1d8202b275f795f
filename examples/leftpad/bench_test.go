package leftpad

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

var versions = []Version{V1, V2}

// BenchmarkHandler is the article's BenchmarkLeftpadHandler and
// BenchmarkTimedHandler in one: the whole request path with metrics and
// logging, the response discarded.
func BenchmarkHandler(b *testing.B) {
	for _, v := range versions {
		b.Run(v.String(), func(b *testing.B) {
			svc := New(Options{Version: v, StatsD: io.Discard, Log: io.Discard})
			defer svc.Close()
			req := httptest.NewRequest("GET", "/v1/leftpad/?str=test&len=50&chr=*", nil)
			w := &nullResponse{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				req.Form = nil
				svc.ServeHTTP(w, req)
			}
		})
	}
}

func BenchmarkLeftpad(b *testing.B) {
	for _, n := range []int{10, 50} {
		b.Run("v1/len="+itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				leftpadV1("test", n, '*')
			}
		})
		b.Run("v2/len="+itoa(n), func(b *testing.B) {
			buf := make([]byte, 0, 64)
			b.ReportAllocs()
			for b.Loop() {
				buf = leftpadV2(buf[:0], "test", n, '*')
			}
		})
	}
}

func BenchmarkStatsD(b *testing.B) {
	for _, v := range versions {
		b.Run(v.String(), func(b *testing.B) {
			s := NewStatsD(io.Discard, "namespace", 0.5, v)
			b.ReportAllocs()
			for b.Loop() {
				s.Send("stat", "c", 1)
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
