package collect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/httpguard"
)

// PushOptions configure Push: where the program sends its profiles, and
// which.
type PushOptions struct {
	// URL is the perflab server's (or Grafana Pyroscope's) base URL, such
	// as http://127.0.0.1:4040: profiles are posted to URL/ingest.
	URL string
	// Service is the series' service_name; Labels are added to every
	// series (such as version, region). Label values may not hold , { }
	// or =, which the name of /ingest cannot carry.
	Service string
	Labels  map[string]string
	// Interval is how often the profiles are sent, and the length of each
	// CPU profile: the CPU is profiled without a break, in slices of
	// Interval. 0 means DefaultPushInterval.
	Interval time.Duration
	// Kinds are the profiles sent: CPU, Allocs, Heap, Goroutine, Mutex,
	// Block (and GoroutineLeak where the runtime has it). Allocs, Mutex
	// and Block are sent as their growth over each interval. Empty means
	// CPU, Allocs and Goroutine.
	Kinds []Kind
	// Token, if not empty, is sent as "Authorization: Bearer <Token>",
	// and Header with every request. As for a fetch, neither follows a
	// redirect (the push fails instead) nor appears in an error, and a
	// token is not sent in clear text: with a token, URL must be https
	// unless it names this machine.
	Token  string
	Header http.Header
	// Timeout bounds each request; 0 means Interval.
	Timeout time.Duration
	// Log is where a failed push is reported, one line each; nil means
	// os.Stderr. A failed push is dropped: the next interval's are sent
	// as usual.
	Log io.Writer
}

// DefaultPushInterval is how often Push sends unless told otherwise: as
// Pyroscope's SDK does.
const DefaultPushInterval = 15 * time.Second

// A Pusher sends the program's profiles to a server until Stop.
type Pusher struct {
	opts   PushOptions
	target *url.URL
	client *http.Client
	log    io.Writer

	mu       sync.Mutex // held while a round of pushes runs
	cpu      *bytes.Buffer
	cpuStart time.Time
	prev     map[Kind]*profile.Profile // the last snapshot of each cumulative kind
	restore  []func()

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// pushKinds are the kinds Push can send.
var pushKinds = []Kind{CPU, Allocs, Heap, Goroutine, Mutex, Block, GoroutineLeak}

// Push starts sending the program's profiles to a perflab server, over
// the /ingest API of Grafana Pyroscope (which perflab server and
// Pyroscope take alike), every opts.Interval until Stop. It fails at once
// on bad options, or when the CPU profiler is in use.
//
//	p, err := collect.Push(collect.PushOptions{URL: "http://127.0.0.1:4040", Service: "checkout"})
//	if err != nil { ... }
//	defer p.Stop()
func Push(opts PushOptions) (*Pusher, error) {
	p, err := newPusher(opts)
	if err != nil {
		return nil, err
	}
	p.setRates()
	if slices.Contains(p.opts.Kinds, CPU) {
		p.cpu, p.cpuStart = new(bytes.Buffer), time.Now()
		if err := pprof.StartCPUProfile(p.cpu); err != nil {
			p.restoreRates()
			return nil, fmt.Errorf("collect: push: %w", err)
		}
	}
	for _, k := range p.opts.Kinds {
		if cumulative(k) {
			p.prev[k], _ = snapshot(pprof.Lookup(lookupName(k)))
		}
	}
	go p.run()
	return p, nil
}

// newPusher checks opts and fills in their defaults.
func newPusher(opts PushOptions) (*Pusher, error) {
	u, err := url.Parse(opts.URL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("collect: push: URL %q: want http(s)://HOST:PORT", clip(opts.URL, 80))
	}
	if opts.Token != "" && u.Scheme != "https" && !httpguard.IsLoopback(u.Hostname()) {
		return nil, fmt.Errorf("collect: push: a token is sent over https only, or to this machine; %s is neither", u.Redacted())
	}
	if err := checkPushName(opts.Service, opts.Labels); err != nil {
		return nil, fmt.Errorf("collect: push: %w", err)
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultPushInterval
	}
	if opts.Timeout <= 0 {
		opts.Timeout = opts.Interval
	}
	if len(opts.Kinds) == 0 {
		opts.Kinds = []Kind{CPU, Allocs, Goroutine}
	}
	for _, k := range opts.Kinds {
		if !slices.Contains(pushKinds, k) || !k.valid() {
			return nil, fmt.Errorf("collect: push: kind %q cannot be pushed (want cpu, allocs, heap, goroutine, mutex, block)", clip(string(k), 40))
		}
	}
	p := &Pusher{opts: opts, target: u, log: opts.Log, prev: map[Kind]*profile.Profile{},
		stop: make(chan struct{}), done: make(chan struct{})}
	if p.log == nil {
		p.log = os.Stderr
	}
	p.client = &http.Client{
		Timeout: opts.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return errors.New("the server redirected: not followed, so that the token stays with it")
		},
	}
	return p, nil
}

// checkPushName refuses a service or labels that the name parameter of
// /ingest cannot carry.
func checkPushName(service string, labels map[string]string) error {
	if service == "" || strings.Trim(service, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-./_") != "" {
		return fmt.Errorf("service %q: want letters, digits and - . / _", clip(service, 40))
	}
	for k, v := range labels {
		if k == "" || strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") != "" || k[0] >= '0' && k[0] <= '9' {
			return fmt.Errorf("label name %q: want [a-zA-Z_][a-zA-Z0-9_.]*", clip(k, 40))
		}
		if v == "" || strings.ContainsAny(v, ",{}=") {
			return fmt.Errorf("label %s: value %q is empty or holds , { } or =", k, clip(v, 40))
		}
	}
	return nil
}

// run pushes every interval until Stop.
func (p *Pusher) run() {
	defer close(p.done)
	tick := time.NewTicker(p.opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
			for _, err := range p.round(false) {
				fmt.Fprintf(p.log, "collect: push: %v\n", err)
			}
		}
	}
}

// Stop sends what was collected since the last push, stops the CPU
// profiler and restores the profiling rates Push changed. It returns the
// errors of that last push, joined. It may be called more than once.
func (p *Pusher) Stop() error {
	var errs []error
	p.once.Do(func() {
		close(p.stop)
		<-p.done
		errs = p.round(true)
		p.restoreRates()
	})
	return errors.Join(errs...)
}
