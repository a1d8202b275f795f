package profiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/perflab/perflab/internal/pprofproto"
	"github.com/perflab/perflab/internal/units"
)

// A Budget is the number of bytes that loading may hold in memory: the
// bytes read from sources and the bytes gzip inflates them to, summed over
// every source that shares the Budget. Readers take from it before each
// allocation (their buffers grow by chunks, never by doubling), and give
// nothing back, so input beyond the budget is refused after allocating at
// most the budget, and several sources loaded at once hold no more than
// it together. Load
// shares one Budget of Options.MaxBytes between all its sources unless
// Options.Budget gives one. A Budget is safe for concurrent use.
type Budget struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	sources map[string]bool // the names of the sources that took from it
}

var _ pprofproto.Quota = (*Budget)(nil)

// NewBudget returns a Budget of limit bytes.
func NewBudget(limit int64) *Budget {
	return &Budget{limit: limit, sources: map[string]bool{}}
}

// Take grants up to n bytes, fewer if fewer are left, and returns how
// many it granted.
func (b *Budget) Take(n int64) int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	n = max(0, min(n, b.limit-b.used))
	b.used += n
	return n
}

// Limit returns the Budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// left returns how many bytes are left.
func (b *Budget) left() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit - b.used
}

// join records that source takes from the Budget.
func (b *Budget) join(source string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sources[source] = true
}

// tooLarge says that a source is, or inflates to (as is says), more than
// the Budget allows: the limit, or what the other sources left of it.
func (b *Budget) tooLarge(is string) error {
	b.mu.Lock()
	shared := len(b.sources) > 1
	b.mu.Unlock()
	if shared {
		return fmt.Errorf("%w: with the other sources, %s more than %s (the limit for all sources together; raise it with -max_bytes)",
			ErrTooLarge, is, units.ExactBytes(b.limit))
	}
	return fmt.Errorf("%w: %s more than %s (the limit; raise it with -max_bytes)", ErrTooLarge, is, units.ExactBytes(b.limit))
}

// budget returns the Budget loading takes from: Options.Budget, else a
// new one of MaxBytes.
func (o Options) budget() *Budget {
	if o.Budget != nil {
		return o.Budget
	}
	return NewBudget(o.maxBytes())
}

// readBudget reads all of r, source name, taking the memory it holds from
// b. size is r's length if known (a regular file's size, a
// Content-Length), else -1: a known size beyond what b has left is refused
// before anything is read, and the data is then read into one buffer.
func readBudget(name string, r io.Reader, size int64, b *Budget) ([]byte, error) {
	b.join(name)
	if size > b.left() {
		return nil, fmt.Errorf("%s: %w", name, b.tooLarge("is"))
	}
	data, err := pprofproto.ReadAll(r, size, b)
	switch {
	case errors.Is(err, pprofproto.ErrTooLarge):
		return nil, fmt.Errorf("%s: %w", name, b.tooLarge("is"))
	case err != nil:
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// ReadAll reads all of r, source name, into memory taken from b, in chunks
// (a buffer never doubles), and refuses input beyond what b has left with
// an error wrapping ErrTooLarge. size is r's length if known (a file's
// size, a Content-Length), else -1: a known size beyond what b has left is
// refused before anything is read. A server reads a profile a client
// uploads with it, then gives ParseData the same Budget.
func ReadAll(name string, r io.Reader, size int64, b *Budget) ([]byte, error) {
	return readBudget(name, r, size, b)
}

// readCapped reads all of r, refusing more than max bytes.
func readCapped(name string, r io.Reader, max int64) ([]byte, error) {
	return readBudget(name, r, -1, NewBudget(max))
}

// readStdin reads Options.Stdin, the source "-", until it ends or ctx
// does.
func (o Options) readStdin(ctx context.Context) ([]byte, error) {
	if o.Stdin == nil {
		return nil, errors.New("-: no standard input")
	}
	return untilDone(ctx, "standard input", func() ([]byte, error) {
		return readBudget("standard input", o.Stdin, -1, o.budget())
	})
}

// readFile reads the file name, which os.Stat described as info. A regular
// file larger than the budget left is refused before it is read; anything
// else (a device, a FIFO) is read until it ends or exceeds the budget, or
// until ctx ends: opening a FIFO waits for a writer, and reading it for
// data, which may never come.
func readFile(ctx context.Context, name string, info os.FileInfo, opts Options) ([]byte, error) {
	if info.IsDir() {
		return nil, fmt.Errorf("%s: is a directory, not a profile", name)
	}
	if info.Mode().IsRegular() {
		return readOpen(name, info, opts)
	}
	return untilDone(ctx, name, func() ([]byte, error) { return readOpen(name, info, opts) })
}

// untilDone returns what read returns, or ctx's error once ctx ends
// first; read then goes on in the background until it returns, within
// the budget, and its result is dropped. Reading what may block for ever
// (a FIFO, a terminal) this way lets Ctrl-C end the command.
func untilDone(ctx context.Context, name string, read func() ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", name, ctx.Err())
	}
}

// readOpen opens and reads the file name (see readFile).
func readOpen(name string, info os.FileInfo, opts Options) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	size := int64(-1)
	if info.Mode().IsRegular() {
		size = info.Size()
	}
	return readBudget(name, f, size, opts.budget())
}
