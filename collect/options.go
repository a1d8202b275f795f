package collect

import (
	"io"
	"os"
	"path/filepath"
	"slices"
)

// An Option configures Start.
type Option func(*config)

// config is what Start's options add up to.
type config struct {
	kinds     []Kind
	files     map[Kind]string // explicit file names, from File
	dir       string
	memRate   *int
	blockRate *int
	mutexFrac *int
	wallHz    int
	signals   bool
	log       io.Writer
	ignoreEnv bool
}

func newConfig() *config {
	return &config{
		files:   make(map[Kind]string),
		dir:     ".",
		wallHz:  DefaultWallRate,
		signals: true,
		log:     os.Stderr,
	}
}

func (c *config) add(k Kind) {
	if !slices.Contains(c.kinds, k) {
		c.kinds = append(c.kinds, k)
	}
}

// path is the file a kind is written to.
func (c *config) path(k Kind) string {
	if name, ok := c.files[k]; ok {
		return name
	}
	return filepath.Join(c.dir, k.FileName())
}

// Profiles selects kinds of profile to write, each to its kind's FileName
// in the directory given by Dir.
func Profiles(kinds ...Kind) Option {
	return func(c *config) {
		for _, k := range kinds {
			c.add(k)
		}
	}
}

// Dir sets the directory that Profiles' files are written to, creating it
// if needed. The default is the current directory.
func Dir(dir string) Option {
	return func(c *config) { c.dir = dir }
}

// File selects one kind of profile and writes it to the named file instead
// of its place in Dir.
func File(k Kind, name string) Option {
	return func(c *config) {
		c.add(k)
		c.files[k] = name
	}
}

// MemProfileRate sets runtime.MemProfileRate (bytes allocated per sample)
// for the session when a heap or allocs profile is selected; Stop restores
// the previous rate. 1 records every allocation.
func MemProfileRate(rate int) Option {
	return func(c *config) { c.memRate = &rate }
}

// BlockProfileRate sets runtime.SetBlockProfileRate for the session when a
// block profile is selected (default 1: every blocking event); Stop
// restores the previous rate.
func BlockProfileRate(rate int) Option {
	return func(c *config) { c.blockRate = &rate }
}

// MutexProfileFraction sets runtime.SetMutexProfileFraction for the session
// when a mutex profile is selected (default 1: every contention event);
// Stop restores the previous fraction.
func MutexProfileFraction(fraction int) Option {
	return func(c *config) { c.mutexFrac = &fraction }
}

// DefaultWallRate is how many times a second the wall-clock profile samples
// every goroutine unless WallRate says otherwise.
const DefaultWallRate = 99

// WallRate sets how many times a second the wall-clock profile samples
// every goroutine. Each sample stops the world for a moment, so rates far
// above the default cost more than they reveal.
func WallRate(hz int) Option {
	return func(c *config) {
		if hz > 0 {
			c.wallHz = hz
		}
	}
}

// NoSignals leaves SIGINT and SIGTERM alone. By default Start catches them,
// stops the session so the files are complete, and then lets the signal
// end the process as it would have; a program with its own graceful
// shutdown that calls Stop itself can opt out. A signal the process
// ignores when Start runs (signal.Ignored: SIGINT for a job a shell
// started in the background, or one the program passed to signal.Ignore)
// is left alone in any case.
func NoSignals() Option {
	return func(c *config) { c.signals = false }
}

// Log sets where Start and Stop report problems, one line each, since
// `defer collect.Start().Stop()` discards Stop's error. The default is
// os.Stderr; nil silences them.
func Log(w io.Writer) Option {
	return func(c *config) { c.log = w }
}

// IgnoreEnv makes Start ignore PERFLAB_PROFILE and PERFLAB_PROFILE_DIR.
func IgnoreEnv() Option {
	return func(c *config) { c.ignoreEnv = true }
}
