package dirstore

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// The test binary runs as a child process of a test when childEnv is
// set: "ingest" writes profiles to the store in dirEnv until it is
// killed, printing the numbers of those each Write acknowledged; "open"
// opens the store and says how it went.
const (
	childEnv = "PERFLAB_DIRSTORE_CHILD"
	dirEnv   = "PERFLAB_DIRSTORE_DIR"
	hookEnv  = "PERFLAB_DIRSTORE_HOOK" // a point of compaction to stop at
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "ingest":
		os.Exit(ingestChild(os.Getenv(dirEnv)))
	case "open":
		s, err := Open(os.Getenv(dirEnv), Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childFleet is the fleet of the ingest child: small CPU profiles of
// three instances.
var childFleet = sync.OnceValue(func() *fleetgen.Fleet {
	f, err := fleetgen.New(fleetgen.Config{Seed: 9, Service: "kill", Instances: 3, Functions: 40, Stacks: 150, MaxDepth: 12, Samples: 80, Interval: time.Minute})
	if err != nil {
		panic(err)
	}
	return f
})

// childProfile returns profile i of the ingest child.
func childProfile(i int) store.Profile {
	p, err := childFleet().Profile("cpu", i%3, i/3)
	if err != nil {
		panic(err)
	}
	return p
}

// ingestChild writes profiles from four goroutines, in batches of one to
// three, to a store of small WAL segments, so that segments are
// compacted and blocks merged while it writes; it prints "ok N..." once a
// Write returns. At the point of compaction hookEnv names, it prints
// "hook POINT" and waits a second there.
func ingestChild(dir string) int {
	hook := func(point string) {
		if point == os.Getenv(hookEnv) {
			os.Stdout.WriteString("hook " + point + "\n")
			time.Sleep(time.Second)
		}
	}
	s, err := Open(dir, Options{SegmentBytes: 24 << 10, Log: func(string) {}, hook: hook})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for w := range 4 {
		r := rand.New(rand.NewPCG(uint64(w), 1))
		wg.Go(func() {
			for {
				mu.Lock()
				n := 1 + r.IntN(3)
				first := next
				next += n
				mu.Unlock()
				var ps []store.Profile
				var ack strings.Builder
				ack.WriteString("ok")
				for i := first; i < first+n; i++ {
					ps = append(ps, childProfile(i))
					fmt.Fprintf(&ack, " %d", i)
				}
				if err := s.Write(context.Background(), ps...); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				os.Stdout.WriteString(ack.String() + "\n")
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return 0
}

// TestKill kills (SIGKILL) a real process writing to a store, at
// moments of ingest and at the points of compaction where a crash leaves
// the most to put right (blocks written and the WAL segment they compact
// still there; a merged block and the blocks it merges; a block without
// its rollups), then opens the store: every profile a Write acknowledged
// is there, as the Reference has it, and nothing else but profiles the
// process was writing, whole. About 5 s.
func TestKill(t *testing.T) {
	for _, tc := range []struct {
		acks int
		hook string
	}{{30, ""}, {400, ""}, {1, "compacted"}, {1, "merged"}, {1, "renamed"}} {
		t.Run(fmt.Sprint(tc.acks, tc.hook), func(t *testing.T) {
			dir := t.TempDir()
			acked := runAndKill(t, dir, tc.acks, tc.hook)
			t.Logf("left by the kill: %s", listFiles(t, dir))
			log := &testLog{t: t}
			s := openStore(t, dir, Options{Log: log.log})
			checkAfterKill(t, s, acked)
		})
	}
}

// runAndKill runs the ingest child on dir until it has acknowledged at
// least acks profiles and stopped at hook, if not "", kills it, and
// returns the profiles acknowledged.
func runAndKill(t *testing.T, dir string, acks int, hook string) map[int]bool {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=ingest", dirEnv+"="+dir, hookEnv+"="+hook)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	acked := map[int]bool{}
	sc := bufio.NewScanner(out)
	killed := false
	stopped := hook == ""
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if fields[0] == "hook" {
			stopped = true
			continue
		}
		for _, f := range fields[1:] {
			i, _ := strconv.Atoi(f)
			acked[i] = true
		}
		if len(acked) >= acks && stopped && !killed {
			cmd.Process.Kill() // the lines already written are acknowledgements too
			killed = true
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatalf("the writer stopped after %d acknowledgements: %s", len(acked), stderr.Bytes())
	}
	return acked
}

// checkAfterKill checks that s holds every acknowledged profile and no
// other but those the writer was writing, each whole.
func checkAfterKill(t *testing.T, s *Store, acked map[int]bool) {
	ctx := context.Background()
	last := 0
	for i := range acked {
		last = max(last, i)
	}
	ids := map[string]int{} // of every profile the writer may have written
	for i := range last + 16 {
		p := childProfile(i)
		sp, err := store.Split(p.Profile)
		if err != nil {
			t.Fatal(err)
		}
		ids[store.ProfileID(p.Labels.Sort(), p.Time.UTC(), sp)] = i
	}
	infos, err := s.Profiles(ctx, store.Selection{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[int]bool{}
	ref := storetest.NewReference(store.Limits{})
	for _, in := range infos {
		i, ok := ids[in.ID]
		if !ok {
			t.Fatalf("profile %s stored, not one the writer wrote", in.ID)
		}
		stored[i] = true
		if err := ref.Write(ctx, childProfile(i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := range acked {
		if !stored[i] {
			t.Errorf("profile %d acknowledged, not stored", i)
		}
	}
	t.Logf("%d profiles acknowledged, %d stored", len(acked), len(stored))
	cpu := store.Selection{Type: kindOf(t, "cpu")}
	got, gerr := s.Merge(ctx, cpu)
	want, werr := ref.Merge(ctx, cpu)
	if !bytes.Equal(encodeProfile(t, got, gerr), encodeProfile(t, want, werr)) {
		t.Errorf("the merge of what is stored is not the Reference's merge of those profiles")
	}
	for _, in := range infos[:min(len(infos), 20)] {
		got, gerr := s.Profile(ctx, in.ID)
		want, werr := ref.Profile(ctx, in.ID)
		if !bytes.Equal(encodeProfile(t, got, gerr), encodeProfile(t, want, werr)) {
			t.Errorf("profile %s is not the Reference's", in.ID)
		}
	}
}

// TestTornWrite cuts the last segment of the WAL as a crash may leave it
// (in a chunk's header, in its payload, one byte short, garbage after
// the end, a byte changed) and opens the store: the last chunk is
// dropped with a log line naming the segment, the others are read, and
// the store takes writes again. About 1 s.
func TestTornWrite(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openStore(t, dir, Options{})
	var ends []int64 // the end of each chunk: one Write each
	for i := range 6 {
		if err := s.Write(ctx, childProfile(i)); err != nil {
			t.Fatal(err)
		}
		s.mu.RLock()
		ends = append(ends, s.active.size)
		s.mu.RUnlock()
	}
	seg := s.active.path
	s.Close()
	last, prev := ends[len(ends)-1], ends[len(ends)-2]
	for name, damage := range map[string]func([]byte) []byte{
		"cut in a header":   func(b []byte) []byte { return b[:prev+3] },
		"cut in a payload":  func(b []byte) []byte { return b[:(prev+last)/2] },
		"one byte short":    func(b []byte) []byte { return b[:last-1] },
		"a byte changed":    func(b []byte) []byte { b[last-5] ^= 0x40; return b },
		"garbage after end": func(b []byte) []byte { return append(b, "\x07\x00\x00\x00garbage"...) },
	} {
		t.Run(name, func(t *testing.T) {
			d := t.TempDir()
			copyDir(t, dir, d)
			path := filepath.Join(d, "wal", filepath.Base(seg))
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, damage(data), 0o666); err != nil {
				t.Fatal(err)
			}
			log := &testLog{t: t}
			s := openStore(t, d, Options{Log: log.log})
			if !log.has(path, "dropped a write cut short") {
				t.Errorf("no log line names %s and the write dropped", path)
			}
			want := 5
			if name == "garbage after end" {
				want = 6
			}
			if st, _ := s.Stats(ctx); st.Profiles != int64(want) {
				t.Errorf("%d profiles after the damage, want %d", st.Profiles, want)
			}
			if err := s.Write(ctx, childProfile(10)); err != nil {
				t.Fatalf("Write after recovering: %v", err)
			}
		})
	}
}

// copyDir copies the files of directory src to dst, but the lock file.
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		if fi.Name() == lockName {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLock opens a store, and another process opening it too gets one
// line naming the lock file and the process that holds it; once the
// store is closed, the other process opens it. About 0.5 s.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, Options{})
	if _, err := Open(dir, Options{}); !errors.Is(err, ErrLocked) {
		t.Errorf("a second Open in the same process: %v, want ErrLocked", err)
	}
	run := func() (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=open", dirEnv+"="+dir)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	want := fmt.Sprintf("%s is locked by process %d", filepath.Join(dir, lockName), os.Getpid())
	if err == nil || !strings.Contains(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("another process opening the store: %v, %q; want one line with %q", err, out, want)
	}
	s.Close()
	if out, err := run(); err != nil {
		t.Errorf("opening the store after Close: %v, %s", err, out)
	}
}

// listFiles returns the files under dir, for a test's log.
func listFiles(t testing.TB, dir string) string {
	var names []string
	filepath.Walk(dir, func(path string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			names = append(names, fmt.Sprintf("%s (%d)", rel, fi.Size()))
		}
		return nil
	})
	return strings.Join(names, ", ")
}
