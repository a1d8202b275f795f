package investigate

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/atomicfile"
)

// maxArtefact bounds what one fetch from the program may take.
const maxArtefact = 512 << 20

// snapshotKinds are the profiles taken at the start and the end of the
// measured window; the cumulative ones are compared as deltas.
var snapshotKinds = []string{"allocs", "heap", "goroutine", "block", "mutex"}

// snapshots are the profiles of one moment, by kind.
type snapshots map[string]*profile.Profile

// checkPprof asks for a goroutine profile; without it the run goes
// on with load and gctrace only.
func (r *runner) checkPprof(ctx context.Context) bool {
	b, err := fetch(ctx, r.o.Pprof+"goroutine", 10*time.Second)
	if err == nil {
		_, err = profile.ParseData(b)
	}
	if err != nil {
		r.problem("no profiles: %s does not serve /debug/pprof/ (%v); the report has load and gctrace only — give -pprof the program's debug URL", r.o.Pprof, err)
		return false
	}
	return true
}

// takeSnapshots fetches every snapshot kind at once and saves each as
// KIND-WHEN.pb.gz.
func (r *runner) takeSnapshots(ctx context.Context, when string) snapshots {
	out := snapshots{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, kind := range snapshotKinds {
		wg.Go(func() {
			name := kind + "-" + when + ".pb.gz"
			p := r.fetchProfile(ctx, kind, 0, name)
			if p != nil {
				mu.Lock()
				out[kind] = p
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if r.proc.running() { // the goroutine dump, grouped by package goroutines
		if b, err := fetch(ctx, r.o.Pprof+"goroutine?debug=2", 30*time.Second); err == nil {
			r.save("goroutines-"+when+".txt", b)
		} else {
			r.problem("goroutine dump: %v", err)
		}
	}
	return out
}

// fetchTimed fetches a profile or trace that records for seconds and
// saves it; it returns the file's path, or "" on failure.
func (r *runner) fetchTimed(ctx context.Context, kind string, seconds int, name string) string {
	b, err := fetch(ctx, r.o.Pprof+kind+"?seconds="+strconv.Itoa(seconds), time.Duration(seconds)*time.Second*3/2+10*time.Second)
	if err != nil {
		if ctx.Err() == nil {
			r.problem("%s: %v", kind, err)
		}
		return ""
	}
	if !r.save(name, b) {
		return ""
	}
	return filepath.Join(r.o.Dir, name)
}

// fetchProfile fetches and parses one profile, saving it under name.
func (r *runner) fetchProfile(ctx context.Context, kind string, seconds int, name string) *profile.Profile {
	b, err := fetch(ctx, r.o.Pprof+kind, 30*time.Second)
	if err != nil {
		r.problem("%s profile: %v", kind, err)
		return nil
	}
	p, err := profile.ParseData(b)
	if err != nil {
		r.problem("%s profile from %s: %v", kind, r.o.Pprof, err)
		return nil
	}
	r.save(name, b)
	return p
}

// save writes an artefact into the run's directory as it came.
func (r *runner) save(name string, b []byte) bool {
	err := atomicfile.Write(filepath.Join(r.o.Dir, name), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		r.problem("%v", err)
		return false
	}
	r.mu.Lock()
	r.rep.artefact(name)
	r.mu.Unlock()
	return true
}

// fetch GETs u and returns its body, or an error naming the URL and the
// status.
func fetch(ctx context.Context, u string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(resp.Body, maxArtefact+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("GET %s: %w", u, err)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	case n > maxArtefact:
		return nil, fmt.Errorf("GET %s: more than %d MB", u, maxArtefact>>20)
	}
	return buf.Bytes(), nil
}
