package investigate

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/httpguard"
	"github.com/perflab/perflab/loadgen"
)

// Options configure Run.
type Options struct {
	// Program and Args are the program to start and its arguments.
	Program string
	Args    []string
	// Env is the program's environment; nil means perflab's own.
	// GODEBUG=gctrace=1 is merged into it either way.
	Env []string

	// Load is the load put on each URL in turn; its URL field is ignored
	// (URLs says where), and its N or Duration is the measured load of
	// each URL. OnSample and OnProgress are Run's own.
	Load loadgen.Config
	// URLs are loaded in turn; the first is polled until it answers.
	URLs []string
	// Pprof is the /debug/pprof/ URL profiles are fetched from; "" means
	// /debug/pprof/ on the first URL's host.
	Pprof string
	// AllowRemote permits URLs on other hosts than loopback.
	AllowRemote bool

	// Dir receives the artefacts and the reports; it is created.
	Dir string
	// Base, if not empty, is the directory of an earlier run to compare with.
	Base string

	// Warmup is the load before measuring; 0 means DefaultWarmup, a
	// negative value none.
	Warmup time.Duration
	// Rounds is how many equal parts the measured load is cut into to
	// judge its noise; 0 means DefaultRounds.
	Rounds int
	// TraceSeconds is the length of the execution trace; 0 means 1, a
	// negative value no trace.
	TraceSeconds int
	// Wait bounds the wait for the first URL to answer; 0 means DefaultWait.
	Wait time.Duration
	// Grace is how long the program has to exit after SIGTERM before
	// SIGKILL; 0 means DefaultGrace.
	Grace time.Duration

	// NoReasons leaves out the compiler's reasons for the allocation
	// sites, which build the program's packages with -m when its source
	// is on this machine.
	NoReasons bool

	// Progress, if not nil, is told what the run is doing.
	Progress func(status string)

	// Flame, if not nil, draws the CPU profile (and, with a base run,
	// the difference from the base's) as an HTML fragment for the report,
	// instead of FlameGraphs.
	Flame func(cpu, base *profile.Profile) (template.HTML, error)
}

// Defaults of Options.
const (
	DefaultWarmup = time.Second
	DefaultRounds = 6
	DefaultWait   = 30 * time.Second
	DefaultGrace  = 5 * time.Second
)

// ErrUsage is what every UsageError is, for errors.Is: a mistake in the
// options.
var ErrUsage = errors.New("usage")

// A UsageError is a mistake in the Options, such as a missing URL or a
// negative duration: a usage error for a command. Its message names the
// option at fault.
type UsageError struct {
	Err error
}

// Error returns the message, which names the option.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *UsageError) Unwrap() error { return e.Err }

// Is reports whether target is ErrUsage.
func (e *UsageError) Is(target error) bool { return target == ErrUsage }

func usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// check validates the options and fills in defaults.
func (o *Options) check() error {
	switch {
	case o.Program == "":
		return usagef("no program to run")
	case len(o.URLs) == 0:
		return usagef("no -url to load")
	case o.Dir == "":
		return usagef("no output directory")
	}
	for _, u := range o.URLs {
		if err := o.checkURL("-url", u); err != nil {
			return err
		}
	}
	if o.Pprof == "" {
		u, _ := url.Parse(o.URLs[0])
		o.Pprof = u.Scheme + "://" + u.Host + "/debug/pprof/"
	}
	if err := o.checkURL("-pprof", o.Pprof); err != nil {
		return err
	}
	if !strings.HasSuffix(o.Pprof, "/") {
		o.Pprof += "/"
	}
	if o.Warmup == 0 {
		o.Warmup = DefaultWarmup
	}
	if o.Rounds <= 0 {
		o.Rounds = DefaultRounds
	}
	if o.TraceSeconds == 0 {
		o.TraceSeconds = 1
	}
	if o.Wait <= 0 {
		o.Wait = DefaultWait
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	return nil
}

func (o *Options) checkURL(flag, raw string) error {
	u, err := loadgen.ParseURL(raw)
	if err != nil {
		return usagef("%s: %w", flag, err)
	}
	if !o.AllowRemote && !httpguard.IsLoopback(u.Hostname()) {
		return usagef("%s %s: host %s is not loopback; add -allow-remote to load another machine", flag, raw, u.Hostname())
	}
	return nil
}

// hostPort is the address of a URL, with the scheme's default port.
func hostPort(raw string) string {
	u, _ := url.Parse(raw)
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// writerFunc adapts a function to io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

var _ io.Writer = writerFunc(nil)
