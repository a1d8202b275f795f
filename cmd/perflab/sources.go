package main

import (
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/perflab/perflab/loadgen"
	"github.com/perflab/perflab/profiles"
)

// tokenEnv names the environment variable -token defaults to: a token
// there does not show in ps or in shell history.
const tokenEnv = "PERFLAB_TOKEN"

// sourceFlags hold the flags about where profiles come from, shared by
// fetch and the report commands.
type sourceFlags struct {
	base, diffBase stringList
	normalize      bool
	seconds        int
	timeout        time.Duration
	maxBytes       int64
	token          string
	headers        stringList
	sel            *selectionFlags // nil without -base: fetch, trace, goroutines
}

// addSourceFlags defines the source flags on fs; withBase adds -base,
// -diff_base and -normalize, which fetch has no use for.
func addSourceFlags(fs *flag.FlagSet, withBase bool) *sourceFlags {
	sf := &sourceFlags{maxBytes: profiles.DefaultMaxBytes}
	if withBase {
		fs.Var(&sf.base, "base", "subtract the base profile at `SRC`")
		fs.Var(&sf.diffBase, "diff_base", "compare with the base profile at `SRC`")
		fs.BoolVar(&sf.normalize, "normalize", false, "scale the profile to the base's total first")
		sf.sel = addSelectionFlags(fs, true)
	}
	fs.IntVar(&sf.seconds, "seconds", 0, "collect `N` seconds of CPU profile or trace from a URL source (at most a year)")
	fs.DurationVar(&sf.timeout, "timeout", 0, "bound on each fetch (default 1.5 x -seconds + 5s, else 60s; at most a year)")
	fs.Var((*profiles.Size)(&sf.maxBytes), "max_bytes", "refuse sources larger than `SIZE`, also after decompression")
	fs.StringVar(&sf.token, "token", "", "send \"Authorization: Bearer `TOKEN`\" to URL sources (default $"+tokenEnv+", which ps does not show)")
	fs.Var(&sf.headers, "H", "send the header `'Name: value'` to URL sources (repeatable; an Authorization header replaces -token's)")
	return sf
}

// options checks the source flags, as usage errors, and returns the
// profiles.Options they select.
func (sf *sourceFlags) options(stdin io.Reader, stderr io.Writer) (profiles.Options, error) {
	opts := profiles.Options{Seconds: sf.seconds, Timeout: sf.timeout, MaxBytes: sf.maxBytes,
		Stdin: stdin, Progress: countdown(stderr), Base: sf.base, Normalize: sf.normalize, Token: sf.token}
	switch {
	case sf.seconds < 0 || sf.seconds > profiles.MaxSeconds:
		return opts, usageErrorf("-seconds %d: out of range (0 to %d, a year)", sf.seconds, profiles.MaxSeconds)
	case sf.timeout < 0 || sf.timeout > profiles.MaxTimeout:
		return opts, usageErrorf("-timeout %v: out of range (0 to %v, a year)", sf.timeout, profiles.MaxTimeout)
	case len(sf.base) > 0 && len(sf.diffBase) > 0:
		return opts, usageErrorf("-base and -diff_base flags cannot both be specified")
	case sf.normalize && len(sf.base)+len(sf.diffBase) == 0:
		return opts, usageErrorf("must have base profile to normalize by")
	}
	if len(sf.diffBase) > 0 {
		opts.Base, opts.DiffBase = sf.diffBase, true
	}
	if opts.Token == "" {
		opts.Token = os.Getenv(tokenEnv)
	}
	if len(sf.headers) > 0 {
		opts.Header = http.Header{}
	}
	for _, h := range sf.headers {
		name, value, err := loadgen.ParseHeader(h)
		if err != nil {
			return opts, headerError(h, err)
		}
		opts.Header.Add(name, value)
	}
	return opts, nil
}

// headerError reports a malformed -H without showing its value, which may
// be a secret.
func headerError(h string, err error) error {
	name, _, ok := strings.Cut(h, ":")
	if !ok {
		return usageErrorf(`-H: want "Name: value", got an argument without a colon (not shown: it may hold a secret)`)
	}
	reason := "malformed"
	if he := (*loadgen.HeaderError)(nil); errors.As(err, &he) {
		reason = he.Reason
	}
	return usageErrorf("-H %q: %s", name, reason)
}

// baseNames names the -diff_base or -base sources, "" without.
func (sf *sourceFlags) baseNames() string {
	return strings.Join(append(slices.Clone(sf.diffBase), sf.base...), " ")
}
