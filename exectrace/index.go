package exectrace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/exp/trace"
)

// Top-level batch kinds of the trace wire format (Go 1.22+), from
// x/exp/trace's internal/tracev2.
const (
	wireEventBatch      = 1
	wireExperimentBatch = 49
	wireEndOfGeneration = 52
	wireMaxBatch        = 64 << 10
)

// An Index locates each generation of a trace file, by bytes and by time,
// so that a window of time can be read without the rest (ReadWindow): a
// timeline zoomed in on a second of a 200 MB trace reads a few megabytes.
// ScanIndex finds both in a quick pass over the batch headers: a
// generation begins at its earliest batch, as x/exp/trace's Sync event
// does, and lasts until the next one begins.
type Index struct {
	header  []byte
	version int // the Go 1.N that wrote the trace
	gens    []genSpan
	origin  trace.Time
	last    []atomic.Int64 // per generation: its last event's time from origin, once read; 0 before
}

type genSpan struct {
	gen      uint64
	off, end int64
	minTs    uint64  // earliest batch timestamp, in ticks
	maxTs    uint64  // latest batch timestamp, in ticks
	freq     float64 // nanoseconds per tick; 0 until the frequency is read
	snapshot bool    // its sync batch holds a clock snapshot
	closed   bool    // its end-of-generation batch was read
	start    trace.Time
}

// MaxGenerations bounds the generations ScanIndex indexes: three days of
// a program traced without a break (the runtime starts a generation about
// every second), and about 25 MB of index. A trace with more is refused.
const MaxGenerations = 1 << 18

// ErrCorrupt is the error, wrapped, of ScanIndex for a trace whose
// generations are broken in a way no truncation explains: one that lacks
// what the runtime writes in every generation (the clock's frequency and,
// since Go 1.25, a clock snapshot), one that begins before the generation
// before it or is numbered out of order, or more than MaxGenerations. The
// generations before the broken one are indexed, but x/exp/trace stops
// reading there too: perflab trace refuses such a trace.
var ErrCorrupt = errors.New("corrupt trace")

// Event codes inside batches, from x/exp/trace's internal/tracev2.
const (
	wireFrequency     = 8  // ticks per second [freq]
	wireSync          = 50 // start of a sync batch (Go 1.25+)
	wireClockSnapshot = 51 // [timestamp, mono, sec, nsec]
)

// ScanIndex reads the batch headers of the trace in r, skipping their
// contents but for the sync batches (the clock's frequency), and returns
// where each generation's bytes are and when it begins. Generations from
// the first that lacks its frequency (a truncated trace) are left out,
// with an error. It checks each generation as it ends, as x/exp/trace
// does, and stops at the first broken one with an error wrapping
// ErrCorrupt, so that a crafted trace of millions of generations costs
// neither time nor memory.
func ScanIndex(r io.Reader) (*Index, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head := make([]byte, 16)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, notTrace(head)
	}
	m := header.FindSubmatch(head)
	if m == nil {
		return nil, notTrace(head)
	}
	v, _ := strconv.Atoi(string(m[1]))
	if v < MinGoVersion {
		return nil, &VersionError{GoVersion: v}
	}
	ix := &Index{header: head, version: v}
	off := int64(len(head))
	var err error
	for {
		start := off
		var b batchHeader
		b, err = scanBatch(br)
		off += b.n
		if errors.Is(err, io.EOF) && b.n == 0 {
			err = nil
			break
		}
		if err != nil {
			err = fmt.Errorf("batch at byte %d: %w", start, err)
			break
		}
		if err = ix.add(b, start, off); err != nil {
			break
		}
	}
	return ix, ix.timeGenerations(err)
}

// add notes a batch read from bytes [start, end), checking a generation
// once it ends: at its end-of-generation batch (Go 1.26+), or when the
// next begins.
func (ix *Index) add(b batchHeader, start, end int64) error {
	k := len(ix.gens)
	if b.endOfGen { // belongs to the last generation
		if k == 0 {
			return fmt.Errorf("byte %d: %w: an end of generation before any generation", start, ErrCorrupt)
		}
		ix.gens[k-1].end, ix.gens[k-1].closed = end, true
		return ix.check(k - 1)
	}
	if k == 0 || ix.gens[k-1].gen != b.gen || ix.gens[k-1].closed {
		if k > 0 && ix.version < 26 { // the previous one ended here
			if err := ix.check(k - 1); err != nil {
				return err
			}
		}
		if k == MaxGenerations {
			return fmt.Errorf("byte %d: %w: more than %d generations", start, ErrCorrupt, MaxGenerations)
		}
		ix.gens = append(ix.gens, genSpan{gen: b.gen, off: start})
	}
	g := &ix.gens[len(ix.gens)-1]
	g.end = end
	if g.minTs == 0 || b.ts < g.minTs { // as x/exp/trace's generation.minTs
		g.minTs = b.ts
	}
	g.maxTs = max(g.maxTs, b.ts)
	if b.freq > 0 {
		g.freq = 1e9 / float64(b.freq)
	}
	g.snapshot = g.snapshot || b.snapshot
	return nil
}

// check refuses generation i, which has ended, if it lacks what the
// runtime writes in every generation or contradicts the one before it,
// and drops it from the index.
func (ix *Index) check(i int) error {
	g := ix.gens[i]
	var why string
	switch {
	case g.freq == 0:
		why = "no clock frequency"
	case ix.version >= 25 && !g.snapshot:
		why = "no clock snapshot"
	case i > 0 && g.gen <= ix.gens[i-1].gen:
		why = fmt.Sprintf("numbered %d after %d", g.gen, ix.gens[i-1].gen)
	case i > 0 && float64(g.minTs)*g.freq < float64(ix.gens[i-1].minTs)*ix.gens[i-1].freq:
		why = "it begins before the generation before it"
	default:
		return nil
	}
	ix.gens = ix.gens[:i]
	return fmt.Errorf("generation at byte %d: %w: %s", g.off, ErrCorrupt, why)
}

// timeGenerations sets when each generation begins, dropping those from
// the first without a frequency, and returns err or the reason they were
// dropped.
func (ix *Index) timeGenerations(err error) error {
	for i := range ix.gens {
		g := &ix.gens[i]
		if g.freq == 0 {
			ix.gens = ix.gens[:i]
			if err == nil {
				err = fmt.Errorf("generation at byte %d has no clock frequency: the trace is truncated or corrupt", g.off)
			}
			break
		}
		g.start = trace.Time(float64(g.minTs) * g.freq)
		if i > 0 && g.start < ix.gens[i-1].start { // the last, unchecked, generation
			ix.gens = ix.gens[:i]
			if err == nil {
				err = fmt.Errorf("generation at byte %d: %w: it begins before the generation before it", g.off, ErrCorrupt)
			}
			break
		}
	}
	if len(ix.gens) > 0 {
		ix.origin = ix.gens[0].start
	}
	ix.last = make([]atomic.Int64, len(ix.gens))
	return err
}

// A batchHeader is what scanBatch reads of a batch.
type batchHeader struct {
	n        int64 // bytes
	gen      uint64
	ts       uint64 // base timestamp, in ticks
	freq     uint64 // ticks per second, if the batch gives it
	snapshot bool   // the batch holds a clock snapshot
	endOfGen bool
}

// scanBatch reads one batch header and skips its data, but for the data
// of the batch that gives the clock's frequency.
func scanBatch(br *bufio.Reader) (batchHeader, error) {
	var b batchHeader
	kind, err := br.ReadByte()
	if err != nil {
		return b, err
	}
	b.n = 1
	exp := false
	switch kind {
	case wireEndOfGeneration:
		b.endOfGen = true
		return b, nil
	case wireExperimentBatch:
		if _, err := br.ReadByte(); err != nil {
			return b, io.ErrUnexpectedEOF
		}
		b.n++
		exp = true
	case wireEventBatch:
	default:
		return b, fmt.Errorf("not a batch (byte %d)", kind)
	}
	var vals [4]uint64 // generation, M, timestamp, size
	for i := range vals {
		v, err := binary.ReadUvarint(byteCounter{br, &b.n})
		if err != nil {
			return b, io.ErrUnexpectedEOF
		}
		vals[i] = v
	}
	size := vals[3]
	if size > wireMaxBatch {
		return b, fmt.Errorf("batch of %d bytes, more than the %d a batch holds", size, wireMaxBatch)
	}
	b.gen, b.ts = min(vals[0], 1<<62), vals[2]
	if first, err := br.Peek(1); !exp && err == nil && size > 0 && (first[0] == wireSync || first[0] == wireFrequency) {
		data := make([]byte, size)
		k, err := io.ReadFull(br, data)
		b.n += int64(k)
		if err != nil {
			return b, io.ErrUnexpectedEOF
		}
		b.freq, b.snapshot = frequency(data)
		return b, nil
	}
	d, err := br.Discard(int(size))
	b.n += int64(d)
	if err != nil {
		return b, io.ErrUnexpectedEOF
	}
	return b, nil
}

// frequency reads the ticks per second from the data of a sync batch
// (Go 1.25+: EvSync, then EvFrequency and EvClockSnapshot in any order)
// or a frequency batch (Go 1.22 to 1.24), 0 if it is not there, and
// whether the batch holds a clock snapshot.
func frequency(data []byte) (freq uint64, snapshot bool) {
	r := bytes.NewReader(data)
	if data[0] == wireSync {
		r.ReadByte()
	}
	for {
		ev, err := r.ReadByte()
		if err != nil {
			return freq, snapshot
		}
		switch ev {
		case wireFrequency:
			f, err := binary.ReadUvarint(r)
			if err != nil {
				return freq, snapshot
			}
			freq = f
		case wireClockSnapshot:
			for range 4 {
				if _, err := binary.ReadUvarint(r); err != nil {
					return freq, snapshot
				}
			}
			snapshot = true
		default:
			return freq, snapshot
		}
	}
}

// byteCounter counts the bytes a ReadUvarint takes.
type byteCounter struct {
	br *bufio.Reader
	n  *int64
}

func (c byteCounter) ReadByte() (byte, error) {
	b, err := c.br.ReadByte()
	if err == nil {
		*c.n++
	}
	return b, err
}

// Generations returns the number of generations indexed.
func (ix *Index) Generations() int { return len(ix.gens) }

// GenerationBytes returns where generation i (from 0) lies in the trace:
// from byte offset to end.
func (ix *Index) GenerationBytes(i int) (offset, end int64) { return ix.gens[i].off, ix.gens[i].end }

// GenerationTimes returns when generation i begins, from the first event
// of the trace, and when it ends: its last event's time once NoteEnd has
// told it, else when the next generation begins, or for the last one the
// timestamp of its latest batch. x/exp/trace reads the first events of a
// generation at the time of the previous one's last, if later: the raw
// times of neighbouring generations overlap by a few milliseconds.
func (ix *Index) GenerationTimes(i int) (start, end time.Duration) {
	g := ix.gens[i]
	start = time.Duration(g.start - ix.origin)
	switch t := ix.last[i].Load(); {
	case t > 0:
		end = time.Duration(t)
	case i+1 < len(ix.gens):
		end = time.Duration(ix.gens[i+1].start - ix.origin)
	default:
		end = time.Duration(trace.Time(float64(g.maxTs)*g.freq) - ix.origin)
	}
	// A damaged trace can put the next generation, or the last event,
	// before this generation's start; a generation never ends before it
	// begins.
	return start, max(start, end)
}

// NoteEnd tells the Index the time of generation i's last event, from the
// trace's first, which only reading it tells.
func (ix *Index) NoteEnd(i int, last time.Duration) { ix.last[i].Store(max(1, int64(last))) }

// Origin returns the time of the trace's first event, its first Sync.
func (ix *Index) Origin() trace.Time { return ix.origin }

// Tiler returns a Tiler for the window [start, end) with times from the
// first event of the whole trace, as ReadWindow needs.
func (ix *Index) Tiler(start, end time.Duration, columns int) *Tiler {
	t := NewTiler(start, end, columns)
	t.started, t.origin, t.told = true, ix.origin, int64(ix.ToldFrom(start, end))
	return t
}

// ReadWindow reads only the generations of the trace in r that overlap
// [start, end) (times from the trace's first event) and gives their events
// to the sinks; it returns the bytes it read.
func (ix *Index) ReadWindow(r io.ReaderAt, start, end time.Duration, sinks ...Sink) (int64, error) {
	first, last := ix.window(start, end)
	if first < 0 {
		return 0, nil
	}
	return ix.ReadGenerations(r, first, last+1, sinks...)
}

// window returns the first and last generations that overlap [start,
// end), or -1, -1.
func (ix *Index) window(start, end time.Duration) (first, last int) {
	first, last = -1, -1
	for i := range ix.gens {
		from, to := ix.GenerationTimes(i)
		if ix.last[i].Load() == 0 { // its last event's time is not known
			to = math.MaxInt64
			if i+1 < len(ix.gens) {
				next, _ := ix.GenerationTimes(i + 1)
				to = next + (next-from)/8
			}
		}
		if to >= start && from < end {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first, last
}

// ToldFrom returns, for a read of the window [start, end) with
// ReadWindow, when its events begin to tell what goroutines do: the
// previous generation's last event (its last few milliseconds overlap the
// first generation read), once NoteEnd told it, else the start of the
// first generation read. A goroutine whose first state in the read says
// it was running ran from then, not from the read's first event.
func (ix *Index) ToldFrom(start, end time.Duration) time.Duration {
	first, _ := ix.window(start, end)
	if first <= 0 {
		return 0
	}
	from, _ := ix.GenerationTimes(first)
	if ix.last[first-1].Load() == 0 {
		return from
	}
	_, prev := ix.GenerationTimes(first - 1)
	return max(from, prev)
}

// ReadGenerations reads generations [from, to) of the trace in r and gives
// their events to the sinks; it returns the bytes it read.
func (ix *Index) ReadGenerations(r io.ReaderAt, from, to int, sinks ...Sink) (int64, error) {
	return ix.readGenerations(r, from, to, true, sinks)
}

// readGenerations is ReadGenerations, with the sinks in their own
// goroutine if pipelined (see read).
func (ix *Index) readGenerations(r io.ReaderAt, from, to int, pipelined bool, sinks []Sink) (int64, error) {
	off, n := ix.gens[from].off, ix.gens[to-1].end-ix.gens[from].off
	in := io.MultiReader(bytes.NewReader(ix.header), io.NewSectionReader(r, off, n))
	_, err := read(in, pipelined, sinks)
	return n, err
}
