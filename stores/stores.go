package stores

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/clickhouse"
	"github.com/perflab/perflab/store/dirstore"
)

// Options configure the store Open and OpenReader open.
type Options struct {
	// Token is sent to a running perflab server (an http:// or https://
	// spec) as a bearer token.
	Token string
	// Limits bound what a store opened for writing takes.
	Limits store.Limits
	// Log, if not nil, is told of what a store notes as it opens (a torn
	// write dropped), one line each.
	Log io.Writer
}

// A Reader is a store open for reading.
type Reader interface {
	store.Reader
	// Close releases the store.
	Close() error
}

// ErrReadOnly is the error of Open for a spec that names a store that
// can only be read: a running perflab server.
var ErrReadOnly = errors.New("a running perflab server can be read, not written to: give a directory or a clickhouse:// URL")

// A kind is one kind of store spec: how to tell it, and how to open it.
type kind struct {
	// is reports whether spec names a store of this kind.
	is func(spec string) bool
	// open opens spec for writing; nil means it can only be read.
	open func(ctx context.Context, spec string, o Options) (store.Store, error)
	// read opens spec for reading.
	read func(ctx context.Context, spec string, o Options) (Reader, error)
}

// kinds is the one table of store specs, the first that matches wins: a
// running server, a ClickHouse server or cluster, else a directory.
var kinds = []kind{
	{ // a running perflab server
		is: func(s string) bool { return hasScheme(s, "http") || hasScheme(s, "https") },
		read: func(ctx context.Context, s string, o Options) (Reader, error) {
			r, err := remote.Open(ctx, s, remote.Options{Token: o.Token})
			if err != nil {
				return nil, err // not a nil *remote.Reader in an interface
			}
			return r, nil
		},
	},
	{ // a ClickHouse server or cluster
		is: func(s string) bool { return hasScheme(s, "clickhouse") },
		open: func(ctx context.Context, s string, o Options) (store.Store, error) {
			st, err := clickhouse.Open(ctx, s, o.Limits)
			if err != nil {
				return nil, err // not a nil *clickhouse.Store in an interface
			}
			return st, nil
		},
	},
	{ // the embedded store
		is: func(string) bool { return true },
		open: func(_ context.Context, dir string, o Options) (store.Store, error) {
			return openDir(dir, o, false)
		},
		read: func(_ context.Context, dir string, o Options) (Reader, error) {
			// Reading creates nothing: a mistyped -store is an error, not
			// a new, empty store.
			return openDir(dir, o, true)
		},
	},
}

// ErrNoStore is the error of OpenReader for a directory that holds no
// store: reading does not create one, as perflab server does.
var ErrNoStore = dirstore.ErrNoStore

// openDir opens the embedded store in dir, refusing a directory without
// one if mustExist.
func openDir(dir string, o Options, mustExist bool) (store.Store, error) {
	st, err := dirstore.Open(dir, dirstore.Options{Limits: o.Limits, Log: o.logLine, MustExist: mustExist})
	if err != nil {
		return nil, err // not a nil *dirstore.Store in an interface
	}
	return st, nil
}

// logLine writes a line a store notes to Options.Log; without a Log, the
// store's notes go to the standard logger.
func (o Options) logLine(line string) {
	if o.Log == nil {
		log.Print(line)
		return
	}
	fmt.Fprintln(o.Log, "perflab: "+line)
}

// hasScheme reports whether spec is a URL of scheme.
func hasScheme(spec, scheme string) bool {
	return len(spec) > len(scheme)+3 && strings.EqualFold(spec[:len(scheme)+3], scheme+"://")
}

// lookup returns the kind of spec.
func lookup(spec string) (kind, error) {
	if spec == "" {
		return kind{}, errors.New("no store given: -store or $PERFLAB_STORE")
	}
	for _, k := range kinds {
		if k.is(spec) {
			return k, nil
		}
	}
	panic("unreachable: the directory kind takes every spec")
}

// Open opens the store spec names for reading and writing, as perflab
// server keeps profiles in it: a directory (store/dirstore, created if
// missing) or a clickhouse:// URL (store/clickhouse). A running server's
// URL is refused with ErrReadOnly.
func Open(ctx context.Context, spec string, o Options) (store.Store, error) {
	k, err := lookup(spec)
	if err != nil {
		return nil, err
	}
	if k.open == nil {
		return nil, fmt.Errorf("store %s: %w", spec, ErrReadOnly)
	}
	return k.open(ctx, spec, o) // its errors name the store
}

// OpenReader opens the store spec names for reading: a directory that
// holds a store (one that does not is refused with ErrNoStore), a
// clickhouse:// URL, or the http:// or https:// URL of a running perflab
// server, which answers from its own store.
func OpenReader(ctx context.Context, spec string, o Options) (Reader, error) {
	k, err := lookup(spec)
	if err != nil {
		return nil, err
	}
	if k.read != nil {
		return k.read(ctx, spec, o) // its errors name the store
	}
	return Open(ctx, spec, o)
}

// Health is how a store's writes go, for a server's status: what waits to
// be written, and why the last write to its backend failed.
type Health struct {
	// PendingBytes are the bytes of writes taken but not yet in the
	// backend (ClickHouse's rows queued or being sent).
	PendingBytes int64
	// Err is why the last write to the backend failed, nil if it did not.
	Err error
}

// HealthOf returns the health of st, if its kind of store tells it: a
// ClickHouse store does, with the bytes it buffers while ClickHouse is
// down; a directory writes before it answers, and has nothing to tell.
func HealthOf(st store.Store) (Health, bool) {
	ch, ok := st.(*clickhouse.Store)
	if !ok {
		return Health{}, false
	}
	h := ch.Health()
	return Health{PendingBytes: h.Pending, Err: h.Err}, true
}
