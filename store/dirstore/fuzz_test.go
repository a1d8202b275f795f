package dirstore

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

var update = flag.Bool("update", false, "rewrite testdata/fuzz from the encodings of a small store")

// The decoders of what the store writes, by the first argument of
// FuzzDecoders; each returns its error, and must never panic.
var decoders = []struct {
	name   string
	decode func(data []byte) error
}{
	{"block index", func(d []byte) error { _, err := decodeBlockMeta(d); return err }},
	{"profile index", func(d []byte) error { _, err := decodeSeriesIndex(d, 1<<10); return err }},
	{"dictionary", decodeDictParts},
	{"rollup index", func(d []byte) error { _, _, err := decodeRollupIndex(d); return err }},
	{"rollup directory", func(d []byte) error { _, err := decodeRollupDir(d, 1<<10); return err }},
	{"rollup", func(d []byte) error { _, err := decodeRollupData(d); return err }},
	{"WAL records", replayRecords},
	{"samples", decodeSamples},
}

// decodeDictParts decodes a dictionary and every part and header in it.
func decodeDictParts(data []byte) error {
	d, err := decodeDict(data)
	if err != nil {
		return err
	}
	for k := range numKinds {
		for _, h := range d.hashes[k] {
			if _, _, err := d.part(k, h); err != nil {
				return err
			}
		}
	}
	for i := range d.headers {
		if _, err := d.header(i); err != nil {
			return err
		}
	}
	return nil
}

// replayRecords replays a WAL chunk's payload into an empty store.
func replayRecords(data []byte) error {
	s := &Store{dir: os.TempDir(), series: map[string]*series{}, partitions: map[int64]*partition{}, cache: newDictCache(1 << 20), opts: Options{}.withDefaults()}
	g := newSegment("", 1, nil, 0)
	return readRecords(data, 0, &replayer{s: s, g: g})
}

// decodeSamples decodes rows of as many columns as the first byte says.
func decodeSamples(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	r := reader{b: data[1:]}
	var rs rows
	r.rows(&rs, int(data[0]%8))
	return r.check("samples")
}

// FuzzDecoders feeds every decoder of the store's files (the content of
// blobs and WAL chunks, which checksums protect on disk) with anything:
// an error, never a panic, and an error that wraps ErrCorrupt.
func FuzzDecoders(f *testing.F) {
	for _, seed := range liveSeeds(f) {
		f.Add(seed.which, seed.data)
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		d := decoders[int(which)%len(decoders)]
		if err := d.decode(data); err != nil && !strings.Contains(err.Error(), ErrCorrupt.Error()) && !strings.Contains(err.Error(), "invalid") {
			t.Errorf("%s: error %v does not say the data is corrupt", d.name, err)
		}
	})
}

// FuzzOpen opens a block file of any content, and reads every profile,
// dictionary and ID page of it: errors, never a panic.
func FuzzOpen(f *testing.F) {
	for _, seed := range liveSeeds(f) {
		if seed.which == blockSeed {
			f.Add(seed.data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "x.blk")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		fd, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fd.Close()
		b, err := readBlockFile(fd, path)
		if err != nil {
			return
		}
		for slot, sec := range b.sections {
			if d, err := b.readDict(sec); err == nil {
				decodeDictParts(d.encode())
			}
			b.eachProfile(slot, func(e *entry, rs *rows) error {
				b.findID(e.id)
				return nil
			})
		}
	})
}

// blockSeed is the "which" of the seed that is a whole block file.
const blockSeed = 255

type seed struct {
	name  string
	which uint8
	data  []byte
}

// liveSeeds returns real encodings of each decoder's input, from a small
// store written now, and a whole block file.
func liveSeeds(t testing.TB) []seed {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(dir, Options{Log: func(string) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f, err := fleetgen.New(fleetgen.Config{Seed: 3, Service: "seed", Functions: 20, Stacks: 6, MaxDepth: 4, Samples: 12, Interval: 40 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var ps []store.Profile
	for i := range 3 {
		for _, k := range []string{"cpu", "heap"} {
			p, err := f.Profile(k, 0, i)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
	}
	if err := s.Write(ctx, ps...); err != nil {
		t.Fatal(err)
	}
	wal, err := os.ReadFile(filepath.Join(dir, "wal", segmentName(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	var b *block
	for _, p := range s.partitions {
		b = p.blocks[0]
	}
	return blockSeeds(t, b, wal)
}

// blockSeeds returns the encodings b holds, and a WAL chunk's payload.
func blockSeeds(t testing.TB, b *block, wal []byte) []seed {
	must := func(data []byte, err error) []byte {
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	file := must(os.ReadFile(b.path))
	rf := b.rollups.Load()
	seeds := []seed{
		{"block", blockSeed, file},
		{"block-index", 0, must(readIndex(b.f, b.bytes, blockMagic))},
		{"profile-index", 1, must(readBlob(b.f, b.slots[0].index))},
		{"dictionary", 2, must(readBlob(b.f, b.sections[0].dict))},
		{"rollup-index", 3, must(readIndex(rf.f, rf.size, rollupMagic))},
		{"wal-records", 6, wal[len(walMagic)+chunkHeader:]},
	}
	for slot := range b.slots {
		if rf.slots[slot].n == 0 {
			continue
		}
		seeds = append(seeds, seed{"rollup-directory", 4, must(readBlob(rf.f, rf.slots[slot]))})
		dir, err := b.rollupDir(rf, slot)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed{"rollup", 5, must(readBlob(rf.f, dir[0].data))})
		break
	}
	x, err := b.seriesIndex(b.slots[0])
	if err != nil {
		t.Fatal(err)
	}
	page := must(b.page(x.pages[0]))
	ncol := b.sections[0].columns(x.entries[0].header)
	return append(seeds, seed{"samples", 7, append([]byte{byte(ncol)}, page...)})
}

// TestWriteFuzzSeeds rewrites the seed corpora of FuzzDecoders and
// FuzzOpen with -update, from a small store's real encodings.
func TestWriteFuzzSeeds(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite the seed corpus")
	}
	for _, sd := range liveSeeds(t) {
		target, body := "FuzzDecoders", fmt.Sprintf("go test fuzz v1\nuint8(%d)\n[]byte(%q)\n", sd.which, sd.data)
		if sd.which == blockSeed {
			target, body = "FuzzOpen", fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", sd.data)
		}
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, sd.name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
