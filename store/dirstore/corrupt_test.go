package dirstore

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// compacted returns the directory of a closed store holding the fixture
// of store/storetest in one block, and a Reference holding the same.
func compacted(t *testing.T) (string, *storetest.Reference) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir, Options{})
	ref := storetest.NewReference(store.Limits{})
	ps := storetest.Fixture()
	if err := s.Write(ctx, ps...); err != nil {
		t.Fatal(err)
	}
	if err := ref.Write(ctx, ps...); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	return dir, ref
}

// blockFile returns the path of the one block of the store in dir.
func blockFile(t *testing.T, dir string) string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*.blk"))
	if len(paths) != 1 {
		t.Fatalf("blocks %q, want one", paths)
	}
	return paths[0]
}

// flip changes the byte at off of the file path.
func flip(t *testing.T, path string, off int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if off < 0 {
		off += int64(len(data))
	}
	data[off] ^= 0x10
	if err := os.WriteFile(path, data, 0o666); err != nil {
		t.Fatal(err)
	}
}

// checkOneLine checks that err is one line that names path and says the
// file is corrupt.
func checkOneLine(t *testing.T, err error, path string) {
	t.Helper()
	if err == nil || !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v: want one line naming %s, wrapping ErrCorrupt", err, path)
	}
}

// TestCorruptBlock damages a block's index, then its end: Open refuses
// the store with one line naming the block.
func TestCorruptBlock(t *testing.T) {
	for name, damage := range map[string]func(path string){
		"index":     func(path string) { flip(t, path, -footerSize-3) },
		"cut short": func(path string) { fi, _ := os.Stat(path); os.Truncate(path, fi.Size()-100) },
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := compacted(t)
			path := blockFile(t, dir)
			damage(path)
			_, err := Open(dir, Options{})
			checkOneLine(t, err, path)
		})
	}
}

// TestCorruptPage damages a page of profiles: the store opens, and a
// query that reads the page fails with one line naming the block.
func TestCorruptPage(t *testing.T) {
	dir, _ := compacted(t)
	path := blockFile(t, dir)
	b, err := openBlock(path)
	if err != nil {
		t.Fatal(err)
	}
	x, err := b.seriesIndex(b.slots[0])
	b.close()
	if err != nil {
		t.Fatal(err)
	}
	flip(t, path, x.pages[0].off+3)
	s := openStore(t, dir, Options{})
	_, err = s.Profile(context.Background(), x.entries[0].id.String())
	checkOneLine(t, err, path)
}

// TestCorruptRollups damages a rollup file, then removes one: the
// store logs it, reads the block's profiles instead, rebuilds the
// rollups, and answers as the Reference does all along.
func TestCorruptRollups(t *testing.T) {
	ctx := context.Background()
	cpu := store.Selection{Type: kindOf(t, "cpu")}
	for _, name := range []string{"damaged", "missing"} {
		t.Run(name, func(t *testing.T) {
			dir, ref := compacted(t)
			path := strings.TrimSuffix(blockFile(t, dir), ".blk") + ".rlp"
			if name == "missing" {
				os.Remove(path)
			} else {
				flip(t, path, cpuRollups(t, dir).off+3)
			}
			log := &testLog{t: t}
			s := openStore(t, dir, Options{Log: log.log})
			for range 2 { // reading around the rollups, then the rollups rebuilt
				got, gerr := s.Merge(ctx, cpu)
				want, werr := ref.Merge(ctx, cpu)
				if !bytes.Equal(encodeProfile(t, got, gerr), encodeProfile(t, want, werr)) {
					t.Errorf("the merge is not the Reference's")
				}
				if err := s.Compact(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if !log.has(path, "rollups rebuilt") {
				t.Errorf("no log line says the rollups of %s were rebuilt", path)
			}
		})
	}
}

// TestCorruptWAL damages a WAL segment that is not the last: Open
// refuses the store with one line naming it.
func TestCorruptWAL(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, Options{})
	if err := s.Write(context.Background(), storetest.Fixture()[:4]...); err != nil {
		t.Fatal(err)
	}
	s.Close()
	first := filepath.Join(dir, "wal", segmentName(1))
	data, _ := os.ReadFile(first)
	os.WriteFile(filepath.Join(dir, "wal", segmentName(2)), data, 0o666)
	flip(t, first, int64(len(walMagic)+chunkHeader+10))
	_, err := Open(dir, Options{})
	checkOneLine(t, err, first)
}

// cpuRollups returns the rollup directory of a CPU series of the one
// block of the store in dir.
func cpuRollups(t *testing.T, dir string) blobRef {
	t.Helper()
	b, err := openBlock(blockFile(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	defer b.close()
	if err := b.openRollups(); err != nil {
		t.Fatal(err)
	}
	for slot, bs := range b.slots {
		if bs.labels.Get(store.LabelName) == "process_cpu" {
			return b.rollups.Load().slots[slot]
		}
	}
	t.Fatal("no CPU series")
	return blobRef{}
}
