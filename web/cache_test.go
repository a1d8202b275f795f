package web_test

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// TestCacheBoundedByBytes asks for 24 downloads that differ only by a
// filter matching nothing, each the whole profile: the answers kept stay
// within Options.CacheBytes, where a cache bounded by count kept all 24
// (on a 500,000-sample profile, 4 GB).
func TestCacheBoundedByBytes(t *testing.T) {
	const cacheBytes = 2 << 20
	p, err := profgen.Generate(profgen.Config{Seed: 2, Samples: 8_000, Locations: 4_000, Functions: 500, MaxDepth: 30})
	if err != nil {
		t.Fatal(err)
	}
	s, err := web.New(p, web.Options{Report: report.DefaultOptions(), CacheBytes: cacheBytes})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	_, first := get(t, srv, "/download?i=^nomatch0$")
	before := testprog.HeapAlloc()
	for i := range 24 {
		if code, body := get(t, srv, fmt.Sprintf("/download?i=^nomatch%d$", i)); code != 200 || len(body) != len(first) {
			t.Fatalf("download %d: %d, %d bytes (the first had %d)", i, code, len(body), len(first))
		}
	}
	grew := int64(testprog.HeapAlloc()) - int64(before)
	t.Logf("24 downloads of %d KB: heap grew by %d KB (cache bound %d KB)", len(first)>>10, grew>>10, cacheBytes>>10)
	if len(first)*24 < 2*cacheBytes {
		t.Fatalf("downloads of %d bytes are too small to test the bound", len(first))
	}
	if grew > cacheBytes+1<<20 {
		t.Errorf("24 downloads of %d KB grew the heap by %d KB, more than the cache's bound of %d KB", len(first)>>10, grew>>10, cacheBytes>>10)
	}
}
