package dirstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/perflab/perflab/store"
)

// Options configure a Store. Zero fields take the defaults.
type Options struct {
	// Limits bound what the store takes (see store.Limits).
	Limits store.Limits
	// Log is told, one line each, what the store gets over by itself: a
	// write cut short by a crash and dropped, rollups rebuilt, a
	// compaction that failed and will be tried again. Nil means the
	// standard logger.
	Log func(line string)
	// SegmentBytes is the size at which a WAL segment is closed and
	// compacted into blocks (default 32 MiB); SegmentAge the age (default
	// 5 minutes), so that recent profiles reach rollups soon.
	SegmentBytes int64
	SegmentAge   time.Duration
	// MaxBlockProfiles bounds the profiles of one block (default 1 Mi),
	// and so the memory a compaction takes.
	MaxBlockProfiles int
	// CacheBytes bounds the dictionaries kept in memory between queries
	// (default 64 MiB).
	CacheBytes int64
	// MustExist makes Open refuse a directory that holds no store (an
	// error wrapping ErrNoStore) instead of creating one: for readers, so
	// that a mistyped path is not taken for an empty store.
	MustExist bool

	// hook, in tests, is called at the points of compaction where a crash
	// leaves the most to put right.
	hook func(point string)
}

func (o Options) withDefaults() Options {
	o.Limits = o.Limits.WithDefaults()
	if o.Log == nil {
		o.Log = func(line string) { log.Print(line) }
	}
	if o.SegmentBytes <= 0 {
		o.SegmentBytes = 32 << 20
	}
	if o.SegmentAge <= 0 {
		o.SegmentAge = 5 * time.Minute
	}
	if o.MaxBlockProfiles <= 0 {
		o.MaxBlockProfiles = 1 << 20
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 64 << 20
	}
	if o.hook == nil {
		o.hook = func(string) {}
	}
	return o
}

// A Store keeps profiles in a directory. Its methods may be called
// concurrently; see the package documentation.
type Store struct {
	dir    string
	walDir string
	opts   Options
	lock   *os.File
	cache  *dictCache

	mu         sync.RWMutex
	series     map[string]*series
	partitions map[int64]*partition
	segments   []*segment // the head, oldest first; the last is active unless sealed
	active     *segment
	nextID     uint64
	newest     int64 // the time of the latest profile written, Unix nanoseconds
	pending    int64 // bytes of memory held by writes waiting to be committed
	head       int64 // bytes of memory of the head's segments
	unremoved  int   // segments compacted whose file is not removed yet
	closed     bool
	failed     error // a WAL write failed: the store takes no more writes

	qmu    sync.Mutex // guards queue and qclosed
	queue  []*batch
	qclose bool
	qwake  chan struct{}

	reads readCounts

	compactMu   sync.Mutex // held by a compaction job and by DropBefore
	compactWake chan struct{}
	stop        context.CancelFunc
	done        sync.WaitGroup
}

var _ store.Store = (*Store)(nil)

// A partition is the blocks of one day.
type partition struct {
	day    int64
	dir    string
	blocks []*block // by ID
}

// dayOf returns the day of t, Unix nanoseconds, in days since the epoch.
func dayOf(t int64) int64 {
	const day = int64(24 * time.Hour)
	d := t / day
	if t%day < 0 {
		d--
	}
	return d
}

// dayName returns the name of the directory of day.
func dayName(day int64) string {
	return time.Unix(day*86400, 0).UTC().Format(time.DateOnly)
}

// ErrNoStore is wrapped by Open's error, with Options.MustExist, for a
// directory that holds no store.
var ErrNoStore = errors.New("no perflab store here (perflab server -store DIR creates one)")

// Open opens the store in directory dir, creating it if needed (unless
// opts.MustExist). It refuses a directory another process has open (an
// error wrapping ErrLocked), and a store with a corrupt file (an error
// naming the file and wrapping ErrCorrupt); it drops a write cut short by
// a crash, and says so to opts.Log.
func Open(dir string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if _, err := os.Stat(filepath.Join(dir, "wal")); opts.MustExist && errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("store %s: %w", dir, ErrNoStore)
	}
	if err := os.MkdirAll(filepath.Join(dir, "wal"), 0o777); err != nil {
		return nil, fmt.Errorf("store %s: %w", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", dir, err)
	}
	s := &Store{
		dir: dir, walDir: filepath.Join(dir, "wal"), opts: opts, lock: lock,
		cache:  newDictCache(opts.CacheBytes),
		series: map[string]*series{}, partitions: map[int64]*partition{},
		newest: -1 << 63, nextID: 1,
		qwake: make(chan struct{}, 1), compactWake: make(chan struct{}, 1),
	}
	if err := s.recover(); err != nil {
		s.closeFiles()
		return nil, fmt.Errorf("store %s: %w", dir, err)
	}
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.done.Add(2)
	go s.committer()
	go s.compactor(ctx)
	s.wakeCompactor()
	return s, nil
}

// logf tells opts.Log a line.
func (s *Store) logf(format string, args ...any) {
	s.opts.Log(fmt.Sprintf("dirstore: "+format, args...))
}

// Close stops the store: it waits for the writes under way, stops
// compacting (what is left is compacted when the store is opened again)
// and closes its files. Everything Write acknowledged is already durable.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.qmu.Lock()
	s.qclose = true
	s.qmu.Unlock()
	s.wake()
	s.stop()
	s.done.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeFiles()
	return s.failed
}

// closeFiles closes every file the store has open, and unlocks it.
func (s *Store) closeFiles() {
	for _, p := range s.partitions {
		for _, b := range p.blocks {
			b.close()
		}
	}
	for _, g := range s.segments {
		g.f.Close()
	}
	s.lock.Close()
}

// readCounts count what queries read, for tests and benchmarks to check
// that rollups do their job.
type readCounts struct {
	rollups, profiles atomic.Int64
}

// errClosed is returned by the methods of a closed store.
var errClosed = errors.New("store closed")

// Stats describes what the store holds; Bytes is the size of its files.
func (s *Store) Stats(ctx context.Context) (store.Stats, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := store.Stats{Series: len(s.series)}
	oldest, newest := int64(1<<63-1), int64(-1<<63)
	for _, p := range s.partitions {
		for _, b := range p.blocks {
			st.Profiles += b.count
			st.Bytes += b.size()
			oldest, newest = min(oldest, b.minT), max(newest, b.maxT)
		}
	}
	for _, g := range s.segments {
		st.Bytes += g.size
		for _, e := range g.entries {
			st.Profiles++
			oldest, newest = min(oldest, e.time), max(newest, e.time)
		}
	}
	if st.Profiles > 0 {
		st.Oldest, st.Newest = time.Unix(0, oldest).UTC(), time.Unix(0, newest).UTC()
	}
	return st, nil
}

// sortedPartitions returns the partitions, oldest first; the caller
// holds s.mu.
func (s *Store) sortedPartitions() []*partition {
	ps := make([]*partition, 0, len(s.partitions))
	for _, p := range s.partitions {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *partition) int { return int(a.day - b.day) })
	return ps
}

// partition returns the partition of day, making it; the caller holds
// s.mu.
func (s *Store) partition(day int64) *partition {
	p := s.partitions[day]
	if p == nil {
		p = &partition{day: day, dir: filepath.Join(s.dir, dayName(day))}
		s.partitions[day] = p
	}
	return p
}

// seriesOf returns the series of labels, making it (without refs); the
// caller holds s.mu.
func (s *Store) seriesOf(labels store.Labels) *series {
	key := labels.String()
	ser := s.series[key]
	if ser == nil {
		ser = &series{labels: labels, key: key}
		s.series[key] = ser
	}
	return ser
}

// unref drops n references to ser, forgetting it at none; the caller
// holds s.mu.
func (s *Store) unref(ser *series, n int) {
	ser.refs -= n
	if ser.refs <= 0 {
		delete(s.series, ser.key)
	}
}
