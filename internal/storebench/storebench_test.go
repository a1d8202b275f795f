package storebench

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/store/dirstore"
)

// TestCached builds a small store (two "days" of 48 profiles), reuses
// it, and checks that the files of a range are the profiles the store
// selects for it. A few seconds.
func TestCached(t *testing.T) {
	perDay = 48
	defer func() { perDay = PerDay }()
	ctx := context.Background()
	cache := t.TempDir()
	dir, m, err := Cached(ctx, cache, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again, m2, err := Cached(ctx, cache, 2, nil); err != nil || again != dir || *m2 != *m {
		t.Fatalf("a second Cached: %s, %+v, %v; want the store built, %s", again, m2, err, dir)
	}
	if m.Profiles != 2*perDay || m.StoreBytes <= 0 || m.GzipBytes <= m.StoreBytes {
		t.Errorf("manifest %+v: want %d profiles, and a store smaller than the gzipped files", m, 2*perDay)
	}
	s, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sel := m.Last(5 * time.Minute)
	infos, err := s.Profiles(ctx, sel, 0)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := m.WriteFiles(t.TempDir(), 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(infos) || len(paths) == 0 {
		t.Fatalf("%d files for the last 5 minutes, and %d profiles in the store's selection", len(paths), len(infos))
	}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := profile.Parse(f)
		f.Close()
		if err != nil || !sel.Contains(time.Unix(0, p.TimeNanos)) {
			t.Errorf("%s: %v, time %v: not in the selection %v..%v", path, err, time.Unix(0, p.TimeNanos), sel.Start, sel.End)
		}
	}
	if st, _ := s.Stats(ctx); st.Profiles != int64(m.Profiles) {
		t.Errorf("the store holds %d profiles, the manifest says %d", st.Profiles, m.Profiles)
	}
}
