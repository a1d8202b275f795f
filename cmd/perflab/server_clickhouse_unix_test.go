//go:build unix

package main

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/store/storetest"
)

// TestServerClickHouse pushes the same profiles to a real perflab server
// on a real ClickHouse node and to one on a directory, and writes a
// selection's profile with perflab query against each server and against
// the ClickHouse store itself: the same bytes all three. About ten
// seconds on a loaded machine (beside the binary's build): the pushes,
// one a Write, and three perflab query processes.
func TestServerClickHouse(t *testing.T) {
	bin := perflab(t)
	node := clickhousetest.Start(t)
	if _, err := node.Query("", "CREATE DATABASE perflab"); err != nil {
		t.Fatal(err)
	}
	spec := "clickhouse://" + node.HTTPAddr + "/perflab"
	onClickHouse := startServer(t, bin, spec)
	onDir := startServer(t, bin, filepath.Join(t.TempDir(), "data"))
	ctx := context.Background()
	for _, p := range storetest.Fixture() {
		for _, srv := range []*serverProcess{onClickHouse, onDir} {
			if err := push(ctx, srv.url, p); err != nil {
				t.Fatalf("push to %s: %v\n%s", srv.url, err, srv.stderr)
			}
		}
	}
	from, until := storetest.Epoch, storetest.Epoch.Add(3*time.Hour)
	want := queryProfile(t, bin, onDir.url, from, until)
	for _, spec := range []string{onClickHouse.url, spec} {
		if got := queryProfile(t, bin, spec, from, until); !bytes.Equal(got, want) {
			t.Errorf("perflab query -store %s wrote %d bytes, against the server on a directory %d: they differ", spec, len(got), len(want))
		}
	}
}
