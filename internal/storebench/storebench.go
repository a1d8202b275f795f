package storebench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/dirstore"
)

// Version names the stores this package builds: a cached store of
// another version is built again.
const Version = 1

// PerDay is the number of 10-second profiles of a day.
const PerDay = 24 * 60 * 6

// perDay is the number of profiles Build writes a day: PerDay, but in
// this package's test.
var perDay = PerDay

// SizeDays is the number of days whose gzipped size Build measures (the
// first), for the ratio of the store's size to the files': one, as
// gzipping a profile costs more than generating and storing it.
const SizeDays = 1

// A Manifest describes a store Build made.
type Manifest struct {
	Version  int
	Days     int
	Profiles int
	// Start is the time of the first profile, End one interval past the
	// last.
	Start, End time.Time
	// GzipBytes is the size of the first SizeDays days of profiles as
	// gzipped pprof files (profile.Write), and StoreBytes the size of
	// the store's partitions of those days.
	GzipBytes, StoreBytes int64
	// BuildSeconds is how long the build took.
	BuildSeconds float64
	// Backend is the store's: "clickhouse" for a database of
	// store/clickhouse on Shards servers kept in the directory (see
	// CachedClickHouse), empty for store/dirstore.
	Backend string `json:",omitempty"`
	Shards  int    `json:",omitempty"`
	// TotalBytes is the size of the whole store, and the CPU seconds the
	// build used: the building process's (generating the profiles and
	// gzipping the first days' included) and ClickHouse's. Zero in
	// manifests of older builds.
	TotalBytes                     int64   `json:",omitempty"`
	BuildCPUSeconds, ServerSeconds float64 `json:",omitempty"`
}

// Fleet returns the service of the benchmarks: fleetgen's default.
func Fleet() (*fleetgen.Fleet, error) { return fleetgen.New(fleetgen.Config{}) }

// Build writes days of profiles to a new store in dir, compacts it and
// writes its manifest there; progress, if not nil, is told how far it
// is.
func Build(ctx context.Context, dir string, days int, progress io.Writer) (*Manifest, error) {
	f, err := Fleet()
	if err != nil {
		return nil, err
	}
	start, cpu := time.Now(), cputime.Self()
	s, err := dirstore.Open(dir, dirstore.Options{Log: func(string) {}})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	m := newManifest(f, days)
	if m.GzipBytes, err = write(ctx, s, f, m.Profiles, 2, progress); err != nil {
		return nil, err
	}
	if err := s.Compact(ctx); err != nil {
		return nil, err
	}
	for d := range min(days, SizeDays) {
		n, err := dirSize(filepath.Join(dir, m.Start.AddDate(0, 0, d).Format(time.DateOnly)))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		m.StoreBytes += n
	}
	if m.TotalBytes, err = dirSize(dir); err != nil {
		return nil, err
	}
	m.BuildSeconds, m.BuildCPUSeconds = time.Since(start).Seconds(), (cputime.Self() - cpu).Seconds()
	return m, m.write(dir)
}

func newManifest(f *fleetgen.Fleet, days int) *Manifest {
	m := &Manifest{Version: Version, Days: days, Profiles: days * perDay, Start: f.Config().Start}
	m.End = m.Start.Add(time.Duration(m.Profiles) * f.Config().Interval)
	return m
}

// write writes m as dir's manifest.json.
func (m *Manifest) write(dir string) error {
	data, err := json.MarshalIndent(m, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o666)
}

// A writer is a store as Build writes it.
type writer interface {
	Write(ctx context.Context, ps ...store.Profile) error
}

// write writes n profiles of f from writers goroutines, batch profiles
// a Write, and returns the gzipped size of those of the first SizeDays
// days.
func write(ctx context.Context, s writer, f *fleetgen.Fleet, n, writers int, progress io.Writer) (int64, error) {
	var gz, done atomic.Int64
	errs := make(chan error, writers)
	for w := range writers {
		go func() {
			for i := w * batch; i < n && ctx.Err() == nil; i += writers * batch {
				ps, size, err := profiles(f, i, min(i+batch, n))
				if err == nil {
					err = s.Write(ctx, ps...)
				}
				if err != nil {
					errs <- err
					return
				}
				gz.Add(size)
				if d := done.Add(int64(len(ps))); progress != nil && d%int64(perDay) < batch {
					fmt.Fprintf(progress, "storebench: %d of %d profiles written\n", d, n)
				}
			}
			errs <- ctx.Err()
		}()
	}
	var err error
	for range writers {
		err = cmp.Or(err, <-errs)
	}
	return gz.Load(), err
}

// batch is the number of profiles of a Write of Build.
const batch = 16

// profiles returns profiles [from, to) of f, and the gzipped size of
// those of the first SizeDays days.
func profiles(f *fleetgen.Fleet, from, to int) ([]store.Profile, int64, error) {
	var ps []store.Profile
	var size int64
	for i := from; i < to; i++ {
		p, err := f.Profile("cpu", 0, i)
		if err != nil {
			return nil, 0, err
		}
		if i < SizeDays*perDay {
			var b bytes.Buffer
			if err := p.Profile.Write(&b); err != nil {
				return nil, 0, err
			}
			size += int64(b.Len())
		}
		ps = append(ps, p)
	}
	return ps, size, nil
}

func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			n += fi.Size()
		}
		return err
	})
	return n, err
}

// Cached returns the directory of the store of days days kept in cache,
// and its manifest, building it first if it is not there (under a
// temporary name, renamed when whole).
func Cached(ctx context.Context, cache string, days int, progress io.Writer) (string, *Manifest, error) {
	dir := filepath.Join(cache, fmt.Sprintf("v%d-%ddays", Version, days))
	return cached(dir, func(tmp string) (*Manifest, error) { return Build(ctx, tmp, days, progress) })
}

// cached returns dir and its manifest, built by build in a temporary
// directory first if dir holds none.
func cached(dir string, build func(tmp string) (*Manifest, error)) (string, *Manifest, error) {
	if m, err := ReadManifest(dir); err == nil {
		return dir, m, nil
	}
	tmp := dir + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return "", nil, err
	}
	m, err := build(tmp)
	if err != nil {
		return "", nil, err
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", nil, err
	}
	return dir, m, nil
}

// OpenWeek opens the store of a week of 10-second CPU profiles of
// fleetgen's realistic service (60,480 of them) for a benchmark, built
// the first time into $TMPDIR/perflab-storebench (minutes) and kept there,
// as scripts/bench-store keeps it; it is closed when tb ends.
func OpenWeek(tb testing.TB) (*dirstore.Store, *Manifest) {
	tb.Helper()
	cache := filepath.Join(os.TempDir(), "perflab-storebench")
	dir, m, err := Cached(context.Background(), cache, 7, os.Stderr)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := dirstore.Open(dir, dirstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s, m
}

// ReadManifest reads the manifest of the store in dir; an embedded
// store's whole size is measured when its manifest predates TotalBytes.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("%s: a store of version %d, not %d", dir, m.Version, Version)
	}
	if m.TotalBytes == 0 && m.Backend == "" { // built before TotalBytes was kept
		if m.TotalBytes, err = dirSize(dir); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// Now is when the benchmarks ask their questions: 7 minutes before the
// end of the store's profiles, so that ranges up to now begin and end
// within an hour, as a user's do.
func (m *Manifest) Now() time.Time { return m.End.Add(-7 * time.Minute) }

// Last returns the selection of the last d up to Now: what `perflab
// query -from -D` asks.
func (m *Manifest) Last(d time.Duration) store.Selection {
	cpu, _ := store.LookupKind("cpu")
	return store.Selection{Type: cpu.Type, Start: m.Now().Add(-d), End: m.Now()}
}

// WriteFiles writes the profiles of Last(d) to dir, as gzipped pprof
// files, and returns their paths.
func (m *Manifest) WriteFiles(dir string, d time.Duration) ([]string, error) {
	f, err := Fleet()
	if err != nil {
		return nil, err
	}
	interval := f.Config().Interval
	end := int(m.Now().Sub(m.Start) / interval)
	var paths []string
	for i := end - int(d/interval); i < end; i++ {
		p, err := f.Profile("cpu", 0, i)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, fmt.Sprintf("cpu-%06d.pb.gz", i))
		var b bytes.Buffer
		if err := p.Profile.Write(&b); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
