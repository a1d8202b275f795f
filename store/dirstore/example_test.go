package dirstore_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
	"github.com/perflab/perflab/store/storetest"
)

// A store in a directory: profiles written, compacted into a block with
// its rollups, merged over a range, and the store opened again.
func Example() {
	dir, err := os.MkdirTemp("", "perflab-store")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ctx := context.Background()
	s, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Write(ctx, storetest.Fixture()...); err != nil { // durable once it returns
		log.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil { // what the store does in the background
		log.Fatal(err)
	}
	s.Close()

	s, err = dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	cpu, _ := store.ParseProfileType("cpu")
	api, _ := store.ParseSelector(`{service_name="api"}`)
	p, err := s.Merge(ctx, store.Selection{Type: cpu, Selector: api, Start: storetest.Epoch, End: storetest.Epoch.Add(time.Hour)})
	if err != nil {
		log.Fatal(err)
	}
	st, _ := s.Stats(ctx)
	fmt.Printf("%d profiles in %d series; the first hour of api: %v of CPU profiles\n", st.Profiles, st.Series, time.Duration(p.DurationNanos))
	// Output:
	// 56 profiles in 9 series; the first hour of api: 2h10m0s of CPU profiles
}
