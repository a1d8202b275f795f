package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/stores"
)

// storeEnv names the environment variable -store defaults to.
const storeEnv = "PERFLAB_STORE"

// selectionFlags hold the flags of a selection of a store: where the
// store is, and the range and type every selection of the command takes
// unless it gives its own range (see store.ParseSource).
type selectionFlags struct {
	store, from, until, typ string
}

// addSelectionFlags defines -store, -from, -until and -type on fs; typ
// is false for pgo, whose type is always cpu.
func addSelectionFlags(fs *flag.FlagSet, typ bool) *selectionFlags {
	f := &selectionFlags{from: defaultFrom, until: "now", typ: "cpu"}
	fs.StringVar(&f.store, "store", "", "read selections from `STORE`: a directory, a clickhouse:// URL or the http:// URL of a running perflab server (default $"+storeEnv+"); then a SOURCE such as '{service_name=\"api\"}' is the merge of the profiles it selects (docs/server.md)")
	fs.StringVar(&f.from, "from", f.from, "the selections' start: a `TIME` in RFC 3339, Unix seconds, now, or relative to now (-2h, -7d); a selection's own range, '{...}@-14d..-7d', wins")
	fs.StringVar(&f.until, "until", f.until, "the selections' end (excluded): a `TIME`")
	if typ {
		fs.StringVar(&f.typ, "type", f.typ, "the selections' profile `TYPE`: a kind (cpu, allocs, heap, goroutine, mutex, block, wall) or an ID such as process_cpu:cpu:nanoseconds:cpu:nanoseconds")
	}
	return f
}

// defaultFrom is where a selection starts unless -from says otherwise.
const defaultFrom = "-1h"

// spec returns the store the flags name: -store, else $PERFLAB_STORE.
func (f *selectionFlags) spec() string {
	if f.store != "" {
		return f.store
	}
	return os.Getenv(storeEnv)
}

// defaults returns the selection every source takes unless it gives its
// own range; the flags' errors are usage errors.
func (f *selectionFlags) defaults(now time.Time) (store.Selection, error) {
	var sel store.Selection
	var err error
	if sel.Type, err = store.ParseProfileType(f.typ); err != nil {
		return sel, usageErrorf("-type: %v", err)
	}
	if sel.Start, err = store.ParseTime(f.from, now); err != nil {
		return sel, usageErrorf("-from: %v", err)
	}
	if sel.End, err = store.ParseTime(f.until, now); err != nil {
		return sel, usageErrorf("-until: %v", err)
	}
	if !sel.Start.Before(sel.End) {
		return sel, usageErrorf("-from %s -until %s: the range ends at or before its start", f.from, f.until)
	}
	return sel, nil
}

// A selectionReader reads the selections of one command from its store,
// which it opens at the first selection and keeps open until Close; its
// methods may be called concurrently, as profiles.Load resolves sources.
type selectionReader struct {
	spec  string
	token string
	def   store.Selection
	now   time.Time

	once   sync.Once
	reader stores.Reader
	err    error
}

// reader returns the selectionReader of the flags: token is sent to a
// perflab server.
func (f *selectionFlags) reader(token string) (*selectionReader, error) {
	now := time.Now()
	def, err := f.defaults(now)
	if err != nil {
		return nil, err
	}
	return &selectionReader{spec: f.spec(), token: token, def: def, now: now}, nil
}

// open opens the store once.
func (r *selectionReader) open(ctx context.Context) (stores.Reader, error) {
	r.once.Do(func() {
		if r.spec == "" {
			r.err = fmt.Errorf("a selection needs a store: -store or $%s", storeEnv)
			return
		}
		r.reader, r.err = stores.OpenReader(ctx, r.spec, stores.Options{Token: r.token})
	})
	return r.reader, r.err
}

// selection reads a SOURCE that is a selection.
func (r *selectionReader) selection(src string) (store.Selection, error) {
	return store.ParseSource(src, r.def, r.now)
}

// merge returns the merge of the selection src.
func (r *selectionReader) merge(ctx context.Context, src string) (*profile.Profile, error) {
	sel, err := r.selection(src)
	if err != nil {
		return nil, err
	}
	st, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	p, err := st.Merge(ctx, sel)
	if err != nil {
		return nil, fmt.Errorf("%s from %s until %s: %w", sel.Type, sel.Start.Format(time.RFC3339), sel.End.Format(time.RFC3339), err)
	}
	return p, nil
}

// resolve is a profiles.Options.Resolve: it claims the sources that are
// selections (see store.IsSource) and merges them.
func (r *selectionReader) resolve(ctx context.Context, src string) (*profile.Profile, bool, error) {
	if !store.IsSource(src) {
		return nil, false, nil
	}
	p, err := r.merge(ctx, src)
	return p, true, err
}

// Close closes the store, if it was opened.
func (r *selectionReader) Close() error {
	if r.reader == nil {
		return nil
	}
	return r.reader.Close()
}
