package exectrace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"github.com/perflab/perflab/internal/units"
	"golang.org/x/exp/trace"
)

// A Sink takes the events of a trace, in order.
type Sink interface {
	Event(ev *trace.Event)
}

// MinGoVersion is the oldest Go whose traces Read streams: Go 1.22 made
// traces a sequence of self-contained generations.
const MinGoVersion = 22

// Info describes what Read read.
type Info struct {
	GoVersion   int   // minor version of the Go that wrote the trace, e.g. 26
	Bytes       int64 // bytes read
	Events      int64 // events given to the sinks
	Generations int
}

// A VersionError is a trace too old to stream.
type VersionError struct {
	GoVersion int // minor version, e.g. 21
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("trace written by Go 1.%d: traces must come from Go 1.%d or later (rerun the program built with Go 1.%d+)", e.GoVersion, MinGoVersion, MinGoVersion)
}

// ErrNotTrace means the input is not an execution trace at all.
var ErrNotTrace = errors.New("not an execution trace")

// ErrEmpty means the trace has a header and no events.
var ErrEmpty = errors.New("the trace is empty")

// A TruncatedError says the trace ends early or breaks: every complete
// generation before the break was read; Valid tells how much that is.
type TruncatedError struct {
	Valid Info  // up to the end of the last complete generation
	Read  int64 // bytes read in all, up to the error
	Err   error
}

func (e *TruncatedError) Error() string {
	return fmt.Sprintf("trace truncated or corrupt: kept its first %d complete generations (%d events, %s), lost the %s read after them: %v",
		e.Valid.Generations, e.Valid.Events, units.Bytes(e.Valid.Bytes), units.Bytes(e.Read-e.Valid.Bytes), e.Err)
}

func (e *TruncatedError) Unwrap() error { return e.Err }

// header matches the first bytes of an execution trace.
var header = regexp.MustCompile(`^go 1\.([0-9]+) trace\x00\x00\x00`)

// Read reads the execution trace in r in one pass and gives every event to
// each sink. Memory is what the sinks keep plus one generation of the
// trace (a few megabytes), whatever the trace's length. A trace from
// before Go 1.22 is a *VersionError; input that is not a trace wraps
// ErrNotTrace; a trace that breaks off after at least one complete
// generation is a *TruncatedError, the sinks having seen those
// generations.
//
// The reader decodes batches of events in its own goroutine while the
// sinks take the previous batch: on two cores, about twice as fast.
func Read(r io.Reader, sinks ...Sink) (Info, error) { return read(r, true, sinks) }

// read is Read, with the sinks in a goroutine of their own if pipelined,
// else in the reading goroutine: the way to read several parts of a trace
// at once, one per core.
func read(r io.Reader, pipelined bool, sinks []Sink) (Info, error) {
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 64<<10)
	head, _ := br.Peek(16)
	m := header.FindSubmatch(head)
	if m == nil {
		return Info{Bytes: cr.n}, notTrace(head)
	}
	v, _ := strconv.Atoi(string(m[1]))
	info := Info{GoVersion: v}
	if v < MinGoVersion {
		return info, &VersionError{GoVersion: v}
	}
	tr, err := trace.NewReader(br)
	if err != nil {
		return info, fmt.Errorf("Go 1.%d trace: %w", v, err)
	}
	if !pipelined {
		return readSafely(tr, cr, br, info, &inline{sinks: sinks})
	}
	p := &pipeline{sinks: sinks, full: make(chan []trace.Event, batches-1), free: make(chan []trace.Event, batches)}
	for range batches {
		p.free <- make([]trace.Event, 0, eventBatch)
	}
	p.evs = <-p.free
	done := make(chan struct{})
	go func() {
		defer close(done)
		for evs := range p.full {
			if p.err == nil { // after a failure, the batches are only given back
				p.err = safely(func() {
					for i := range evs {
						for _, s := range sinks {
							s.Event(&evs[i])
						}
					}
				})
			}
			p.free <- evs[:0]
		}
	}()
	info, err = readSafely(tr, cr, br, info, p)
	p.flush()
	close(p.full)
	<-done
	if err == nil && p.err != nil {
		err = fmt.Errorf("Go 1.%d trace: %w", v, p.err)
	}
	return info, err
}

// readSafely is readEvents, with a panic of the trace reader on corrupt
// input (x/exp/trace indexes its tables with IDs from the input) turned
// into an error.
func readSafely(tr *trace.Reader, cr *countingReader, br *bufio.Reader, info Info, q eventQueue) (out Info, err error) {
	defer func() {
		if r := recover(); r != nil {
			info.Bytes = cr.n
			out, err = info, fmt.Errorf("Go 1.%d trace: %w", info.GoVersion, &panicError{r})
		}
	}()
	return readEvents(tr, cr, br, info, q)
}

// A panicError is a panic while reading a trace.
type panicError struct{ value any }

func (e *panicError) Error() string {
	return fmt.Sprintf("corrupt: the trace reader failed on it (%v)", e.value)
}

// safely runs f and returns its panic, if any, as a *panicError.
func safely(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{r}
		}
	}()
	f()
	return nil
}

// An eventQueue takes the events read, for the sinks.
type eventQueue interface {
	add(ev trace.Event)
}

// inline gives each event to the sinks at once.
type inline struct {
	sinks []Sink
	ev    trace.Event
}

func (q *inline) add(ev trace.Event) {
	q.ev = ev
	for _, s := range q.sinks {
		s.Event(&q.ev)
	}
}

// A pipeline hands batches of events from the goroutine that reads the
// trace to the one that runs the sinks.
type pipeline struct {
	err        error // a sink's panic, from the sinks' goroutine
	sinks      []Sink
	full, free chan []trace.Event
	evs        []trace.Event // the batch being filled
}

// batches is how many batches of events exist at a time.
const batches = 3

// add queues ev for the sinks.
func (p *pipeline) add(ev trace.Event) {
	if ev.Kind() == trace.EventTaskEnd {
		p.direct(ev)
		return
	}
	p.evs = append(p.evs, ev)
	if len(p.evs) == cap(p.evs) {
		p.flush()
	}
}

// flush sends the batch being filled to the sinks.
func (p *pipeline) flush() {
	if len(p.evs) > 0 {
		p.full <- p.evs
		p.evs = <-p.free
	}
}

// direct gives ev to the sinks in the reading goroutine, once the other
// is idle. A task's end names the task's type through a string table that
// x/exp/trace's reader keeps appending to as it reads on (its "extra
// strings"), so the sinks must see that event before the reader goes on.
func (p *pipeline) direct(ev trace.Event) {
	p.flush()
	held := make([][]trace.Event, 0, batches-1)
	for range batches - 1 { // every other batch back: the sinks are idle
		held = append(held, <-p.free)
	}
	for _, s := range p.sinks {
		s.Event(&ev)
	}
	for _, b := range held {
		p.free <- b
	}
}

// eventBatch is how many events go to the sinks at a time.
const eventBatch = 4096

// readEvents reads every event into p and returns what Read returns.
func readEvents(tr *trace.Reader, cr *countingReader, br *bufio.Reader, info Info, p eventQueue) (Info, error) {
	v := info.GoVersion
	valid := info
	var genEnd int64
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			info.Bytes = cr.n
			info.Generations = max(0, info.Generations-1)
			if info.Events <= int64(info.Generations+1) { // Sync events only
				return info, fmt.Errorf("Go 1.%d trace with no events: %w", v, ErrEmpty)
			}
			return info, nil
		}
		if err != nil {
			info.Bytes = cr.n
			if valid.Generations == 0 {
				return info, fmt.Errorf("Go 1.%d trace broken in its first generation: %w", v, err)
			}
			return valid, &TruncatedError{Valid: valid, Read: cr.n, Err: err}
		}
		info.Events++
		if ev.Kind() == trace.EventSync {
			// Every event before a Sync belongs to a complete generation,
			// whose bytes the reader had read when it gave the previous
			// Sync, the one that began it.
			info.Generations++
			valid = info
			valid.Bytes = genEnd
			valid.Generations = max(0, valid.Generations-1)
			genEnd = cr.n - int64(br.Buffered())
		}
		p.add(ev)
	}
}

// notTrace explains what the input seems to be instead.
func notTrace(head []byte) error {
	switch {
	case len(head) == 0:
		return fmt.Errorf("%w: the input is empty", ErrNotTrace)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return fmt.Errorf("%w: gzip data, probably a pprof profile (read it with perflab top)", ErrNotTrace)
	case bytes.HasPrefix(head, []byte("go 1.")):
		return fmt.Errorf("%w: malformed header %q", ErrNotTrace, head)
	}
	return fmt.Errorf("%w: it does not start with \"go 1.N trace\"", ErrNotTrace)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
