package dirstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// TestMemoryBudget fills the memory budget while compaction cannot run:
// Write answers ErrBusy, with a message that says why, and takes writes
// again once compaction has emptied the WAL; a batch larger than the
// budget is over a limit. About 1 s.
func TestMemoryBudget(t *testing.T) {
	ctx := context.Background()
	const budget = 200 << 10
	s := openStore(t, t.TempDir(), Options{Limits: store.Limits{MemoryBudget: budget}})
	s.compactMu.Lock() // no compaction for now
	busy := 0
	var err error
	for i := 0; i < 1000 && busy == 0; i++ {
		if err = s.Write(ctx, childProfile(i)); errors.Is(err, store.ErrBusy) {
			busy = i
		} else if err != nil {
			t.Fatal(err)
		}
	}
	s.mu.RLock()
	head := s.head
	s.mu.RUnlock()
	if busy == 0 || !strings.Contains(err.Error(), "over the memory budget") || head > budget {
		t.Errorf("after %d profiles: %v, with %d bytes in the head; want ErrBusy before the head is over %d bytes", busy, err, head, budget)
	}
	t.Logf("busy after %d profiles (%d bytes in the head): %v", busy, head, err)
	s.compactMu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for s.Write(ctx, childProfile(busy)) != nil {
		if time.Now().After(deadline) {
			t.Fatalf("still busy 10 s after compaction could run")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var big []store.Profile
	for i := range 40 {
		big = append(big, childProfile(i))
	}
	if err := s.Write(ctx, big...); !errors.Is(err, store.ErrLimit) {
		t.Errorf("a batch larger than the budget: %v, want ErrLimit", err)
	}
}

// TestCompactionBehind writes while compaction cannot run, in small WAL
// segments: once maxSealed of them wait, Write answers ErrBusy.
func TestCompactionBehind(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir(), Options{SegmentBytes: 8 << 10})
	s.compactMu.Lock()
	defer s.compactMu.Unlock()
	for i := range 1000 {
		err := s.Write(ctx, childProfile(i))
		if errors.Is(err, store.ErrBusy) && strings.Contains(err.Error(), "compaction") {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Errorf("no ErrBusy with compaction stopped")
}

// TestDropBefore drops the first days of a store whose blocks and WAL
// hold four days: the partitions' directories are gone, what is left is
// what the Reference has after the same drop, and so it stays after a
// crash (the WAL's profiles of those days stay dropped). About 2 s.
func TestDropBefore(t *testing.T) {
	ctx := context.Background()
	ps := multiDay(t)
	dir := t.TempDir()
	s := openStore(t, dir, Options{})
	ref := storetest.NewReference(store.Limits{})
	half := len(ps) / 2
	for _, st := range []store.Store{s, ref} {
		if err := st.Write(ctx, ps[:half]...); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	for _, st := range []store.Store{s, ref} {
		if err := st.Write(ctx, ps[half:]...); err != nil { // these stay in the WAL
			t.Fatal(err)
		}
	}
	cut := days.Add(30 * time.Hour) // Sunday noon: Friday and Saturday go
	kept := cut.Truncate(24 * time.Hour)
	for _, st := range []store.Store{s, ref} {
		if err := st.DropBefore(ctx, kept); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DropBefore(ctx, cut); err != nil {
		t.Fatal(err)
	}
	for d := days; d.Before(kept); d = d.Add(24 * time.Hour) {
		if _, err := os.Stat(dirOf(s, d)); !os.IsNotExist(err) {
			t.Errorf("partition %s still there after DropBefore(%v): %v", dirOf(s, d), cut, err)
		}
	}
	if _, err := os.Stat(dirOf(s, kept)); err != nil {
		t.Errorf("partition of the day of DropBefore's time: %v", err)
	}
	crashed := openStore(t, crashCopy(t, s), Options{})
	for name, st := range map[string]*Store{"store": s, "store after a crash": crashed} {
		for i := range 5 {
			sel := store.Selection{Type: kindOf(t, "cpu"), Start: days.Add(time.Duration(i) * 18 * time.Hour)}
			compareAnswers(t, name, st, ref, sel)
		}
		if st, _ := st.Stats(ctx); st.Oldest.Before(kept) {
			t.Errorf("%s: oldest profile %v, before %v", name, st.Oldest, kept)
		}
	}
}

// dirOf returns the directory of the partition of t.
func dirOf(s *Store, t time.Time) string {
	return s.partition(dayOf(t.UnixNano())).dir
}

// TestGroupCommit holds the first commit until the other Writes of 16
// wait, and checks that they share the second: two chunks, one sync
// each, for 16 Writes.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	var s *Store
	var once sync.Once
	hook := func(point string) {
		first, ok := strings.CutPrefix(point, "commit ")
		if !ok {
			return
		}
		once.Do(func() { // hold the first commit until every other Write waits
			n, _ := strconv.Atoi(first)
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				s.qmu.Lock()
				waiting := len(s.queue)
				s.qmu.Unlock()
				if n+waiting == 16 {
					return
				}
			}
		})
	}
	dir := t.TempDir()
	s = openStore(t, dir, Options{hook: hook})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			if err := s.Write(ctx, childProfile(i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	chunks := 0
	f, err := os.Open(filepath.Join(dir, "wal", segmentName(1)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	if err := readChunks(f, fi.Size(), func(int64, []byte) error { chunks++; return nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Stats(ctx); chunks != 2 || st.Profiles != 16 {
		t.Errorf("16 Writes: %d chunks, %d profiles; want 2 chunks, 16 profiles", chunks, st.Profiles)
	}
}

// TestLimitMessages checks what a write over each limit is told.
func TestLimitMessages(t *testing.T) {
	ctx := context.Background()
	p := childProfile(0)
	s := openStore(t, t.TempDir(), Options{Limits: store.Limits{MaxSeries: 1, MaxLabels: 4, MaxProfileSamples: len(p.Profile.Sample) - 1}})
	small := p
	small.Profile = p.Profile.Copy()
	small.Profile.Sample = small.Profile.Sample[:3]
	other := small
	other.Labels = small.Labels.With("instance", "other")
	for _, tc := range []struct {
		p    store.Profile
		want string
	}{
		{p, "profile 1 of 1: " + fmt.Sprintf("%d samples, more than the limit of %d", len(p.Profile.Sample), len(p.Profile.Sample)-1)},
		{store.Profile{Labels: small.Labels.With("a", "1"), Profile: small.Profile}, "5 labels, more than the limit of 4 per series"},
		{small, ""},
		{other, `series {__name__="process_cpu", instance="other", service_name="kill", version="1.42.0"}: more than the limit of 1 series`},
	} {
		err := s.Write(ctx, tc.p)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Write: %v", err)
		case tc.want != "" && (!errors.Is(err, store.ErrLimit) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("Write: %v; want ErrLimit saying %q", err, tc.want)
		}
	}
}
