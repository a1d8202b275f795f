package serverbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/fleetgen"
)

// Profiles are the encoded profiles targets serve, by the path under
// /debug/pprof/ that serves them; each request takes the next one, in
// turn.
type Profiles map[string][][]byte

// TargetProfiles encodes n profiles of each kind a scraper fetches by
// default from f's first instance: CPU (path profile), allocs (each the
// merge of the one before and f's next, as a program's cumulative counts
// grow) and goroutine. Their time is 0, so that the scraper stamps them when it
// reads them, as it does a profile just taken.
func TargetProfiles(f *fleetgen.Fleet, n int) (Profiles, error) {
	ps := Profiles{}
	for _, k := range []struct{ kind, path string }{{"cpu", "profile"}, {"allocs", "allocs"}, {"goroutine", "goroutine"}} {
		var last *profile.Profile
		for i := range n {
			sp, err := f.Profile(k.kind, 0, i)
			if err != nil {
				return nil, err
			}
			p := sp.Profile
			if k.kind == "allocs" && last != nil {
				if p, err = profile.Merge([]*profile.Profile{last, p}); err != nil {
					return nil, fmt.Errorf("serverbench: growing allocs: %w", err)
				}
			}
			last = p
			p.TimeNanos = 0
			var b bytes.Buffer
			if err := p.Write(&b); err != nil {
				return nil, fmt.Errorf("serverbench: encoding a profile: %w", err)
			}
			ps[k.path] = append(ps[k.path], b.Bytes())
		}
	}
	return ps, nil
}

// Targets are programs' /debug/pprof/ trees, each on a loopback listener
// of its own.
type Targets struct {
	// Addrs are the targets' HOST:PORT.
	Addrs   []string
	servers []*http.Server
	served  atomic.Int64
	next    atomic.Int64
	stop    chan struct{}
}

// ServeTargets serves k targets on 127.0.0.1, answering ps. Close stops
// them.
func ServeTargets(k int, ps Profiles) (*Targets, error) {
	t := &Targets{stop: make(chan struct{})}
	for range k {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Close()
			return nil, fmt.Errorf("serverbench: target %d of %d: %w", len(t.servers)+1, k, err)
		}
		srv := &http.Server{Handler: t.handler(ps), ReadHeaderTimeout: 10 * time.Second}
		t.Addrs = append(t.Addrs, ln.Addr().String())
		t.servers = append(t.servers, srv)
		go srv.Serve(ln)
	}
	return t, nil
}

// handler serves /debug/pprof/PATH from ps, the profile after seconds
// for a CPU profile, as net/http/pprof does.
func (t *Targets) handler(ps Profiles) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := strings.CutPrefix(r.URL.Path, "/debug/pprof/")
		list := ps[path]
		if !ok || len(list) == 0 {
			http.NotFound(w, r)
			return
		}
		if s, _ := strconv.Atoi(r.URL.Query().Get("seconds")); s > 0 && path == "profile" {
			timer := time.NewTimer(time.Duration(s) * time.Second)
			defer timer.Stop()
			select {
			case <-timer.C:
			case <-r.Context().Done():
				return
			case <-t.stop:
				http.Error(w, "stopping", http.StatusServiceUnavailable)
				return
			}
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		if _, err := w.Write(list[int(t.next.Add(1))%len(list)]); err == nil {
			t.served.Add(1)
		}
	})
}

// Served returns the number of profiles the targets have sent.
func (t *Targets) Served() int64 { return t.served.Load() }

// Config returns a scrape configuration (perflab server -config) of one
// job, service, scraping every target each interval.
func (t *Targets) Config(service string, interval time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "scrape_configs:\n  - job_name: %s\n    scrape_interval: %s\n    static_configs:\n      - targets:\n", service, interval)
	for _, a := range t.Addrs {
		fmt.Fprintf(&b, "          - %s\n", a)
	}
	return b.String()
}

// Close stops every target, answering the CPU profiles still being
// collected 503.
func (t *Targets) Close() error {
	select {
	case <-t.stop:
		return nil
	default:
		close(t.stop)
	}
	var errs []error
	for _, srv := range t.servers {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		errs = append(errs, srv.Shutdown(ctx))
		cancel()
	}
	return errors.Join(errs...)
}
