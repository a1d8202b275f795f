package leftpad

import (
	"io"
	"strconv"
	"testing"
)

var versions = []Version{V1, V2}

// BenchmarkHandler is the article's BenchmarkLeftpadHandler and
// BenchmarkTimedHandler in one: the whole request path with metrics and
// logging, the response discarded.
func BenchmarkHandler(b *testing.B) {
	for _, v := range versions {
		b.Run(v.String(), func(b *testing.B) {
			serve := serveOne(b, v)
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}

func BenchmarkLeftpad(b *testing.B) {
	for _, n := range []int{10, 50} {
		b.Run("v1/len="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				leftpadV1("test", n, '*')
			}
		})
		b.Run("v2/len="+strconv.Itoa(n), func(b *testing.B) {
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
