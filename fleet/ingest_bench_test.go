package fleet_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/internal/serverbench"
	"github.com/perflab/perflab/store/dirstore"
)

// BenchmarkIngestPath is the whole write path of a push: 10-second CPU
// profiles of fleetgen's service from 64 instances (4 each, encoded up
// front as pyroscope-go sends them, then sent again in turn) posted to
// /ingest of a fleet server on a directory store, over loopback from 16
// clients for each of GOMAXPROCS: HTTP, the multipart form, gunzip and
// decoding, the store's Prepare and Split, its WAL and group commit. The
// CPU time is the whole process's, clients included; scripts/bench-server
// measures the server's alone.
func BenchmarkIngestPath(b *testing.B) {
	const instances = 64
	f, err := fleetgen.New(fleetgen.Config{Instances: instances, PIE: true, Start: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		b.Fatal(err)
	}
	pushes, err := serverbench.Pushes(f, 4)
	if err != nil {
		b.Fatal(err)
	}
	st, err := dirstore.Open(b.TempDir(), dirstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := fleet.New(fleet.Options{Store: st})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	defer client.CloseIdleConnections()
	var next atomic.Int64
	b.SetParallelism(16)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cputime.Self()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			p := pushes[int(next.Add(1))%len(pushes)]
			resp, err := client.Post(hs.URL+"/ingest?"+p.Query, p.ContentType, bytes.NewReader(p.Body))
			if err != nil {
				b.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Errorf("push: %s", resp.Status)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "profiles/s")
	if c := cputime.Self() - cpu; c > 0 {
		b.ReportMetric(float64(b.N)/c.Seconds(), "profiles/cpu-s")
	}
}
