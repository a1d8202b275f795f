package stores_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
	"github.com/perflab/perflab/stores"
)

func TestMain(m *testing.M) { os.Exit(clickhousetest.Main(m)) }

// TestOpenClickHouse opens a clickhouse:// spec on a real ClickHouse
// server, writes storetest's fixture through it, and reads back, through
// OpenReader of the same spec, the merge the Reference store gives.
func TestOpenClickHouse(t *testing.T) {
	node := clickhousetest.Node(t)
	spec := "clickhouse://" + node.HTTPAddr + "/" + clickhousetest.Database(t, node)
	ctx := context.Background()
	w, err := stores.Open(ctx, spec, stores.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fixture := storetest.Fixture()
	if err := w.Write(ctx, fixture...); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := stores.OpenReader(ctx, spec, stores.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(ctx, fixture...); err != nil {
		t.Fatal(err)
	}
	cpu, _ := store.LookupKind("cpu")
	sel := store.Selection{Type: cpu.Type}
	got, err := r.Merge(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ref.Merge(ctx, sel)
	var g, wb bytes.Buffer
	got.WriteUncompressed(&g)
	want.WriteUncompressed(&wb)
	if !bytes.Equal(g.Bytes(), wb.Bytes()) {
		t.Errorf("the merge read from %s differs from the Reference's", spec)
	}
}

// TestSpecErrors checks the errors of specs: none, a server's URL to
// write to, a ClickHouse that is not there, a directory without a store to
// read, each naming the store.
func TestSpecErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := stores.OpenReader(ctx, "", stores.Options{}); err == nil || !strings.Contains(err.Error(), "-store or $PERFLAB_STORE") {
		t.Errorf("OpenReader of no spec = %v", err)
	}
	if _, err := stores.Open(ctx, "http://127.0.0.1:4040", stores.Options{}); !errors.Is(err, stores.ErrReadOnly) || !strings.Contains(err.Error(), "http://127.0.0.1:4040") {
		t.Errorf("Open of a server's URL = %v, want ErrReadOnly naming it", err)
	}
	if _, err := stores.Open(ctx, "clickhouse://127.0.0.1:1/perflab", stores.Options{}); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("Open of a ClickHouse that is not there = %v, want an error naming it", err)
	}
	// Reading a directory that holds no store refuses it and creates
	// nothing (it used to create a store there).
	for _, dir := range []string{filepath.Join(t.TempDir(), "mistyped"), t.TempDir()} {
		_, err := stores.OpenReader(ctx, dir, stores.Options{})
		if !errors.Is(err, stores.ErrNoStore) || !strings.Contains(err.Error(), dir) {
			t.Errorf("OpenReader of %s, no store = %v, want ErrNoStore naming it", dir, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("OpenReader of %s created %d files", dir, len(entries))
		}
	}
}
