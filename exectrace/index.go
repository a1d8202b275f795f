package exectrace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
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
// ScanIndex finds the bytes in a quick pass over the batch headers; the
// times come from a full Read with the Index's Sink among the sinks.
type Index struct {
	header []byte
	gens   []genSpan
	syncs  int
	origin trace.Time
	timed  bool
}

type genSpan struct {
	gen        uint64
	off, end   int64
	start, fin trace.Time
}

// ScanIndex reads the batch headers of the trace in r, skipping their
// contents, and returns where each generation's bytes are.
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
	if v, _ := strconv.Atoi(string(m[1])); v < MinGoVersion {
		return nil, &VersionError{GoVersion: v}
	}
	ix := &Index{header: head}
	off := int64(len(head))
	for {
		start := off
		n, gen, err := skipBatch(br)
		off += n
		if errors.Is(err, io.EOF) && n == 0 {
			return ix, nil
		}
		if err != nil {
			return ix, fmt.Errorf("batch at byte %d: %w", start, err)
		}
		if gen < 0 { // end of generation: belongs to the last one
			if k := len(ix.gens); k > 0 {
				ix.gens[k-1].end = off
			}
			continue
		}
		if k := len(ix.gens); k == 0 || ix.gens[k-1].gen != uint64(gen) {
			ix.gens = append(ix.gens, genSpan{gen: uint64(gen), off: start})
		}
		ix.gens[len(ix.gens)-1].end = off
	}
}

// skipBatch reads one batch header and skips its data, returning the bytes
// read and the batch's generation (-1 for an end-of-generation marker).
func skipBatch(br *bufio.Reader) (int64, int64, error) {
	b, err := br.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	n := int64(1)
	switch b {
	case wireEndOfGeneration:
		return n, -1, nil
	case wireExperimentBatch:
		if _, err := br.ReadByte(); err != nil {
			return n, 0, io.ErrUnexpectedEOF
		}
		n++
	case wireEventBatch:
	default:
		return n, 0, fmt.Errorf("not a batch (byte %d)", b)
	}
	var vals [4]uint64 // generation, M, timestamp, size
	for i := range vals {
		v, err := binary.ReadUvarint(byteCounter{br, &n})
		if err != nil {
			return n, 0, io.ErrUnexpectedEOF
		}
		vals[i] = v
	}
	if vals[3] > wireMaxBatch {
		return n, 0, fmt.Errorf("batch of %d bytes, more than the %d a batch holds", vals[3], wireMaxBatch)
	}
	d, err := br.Discard(int(vals[3]))
	n += int64(d)
	if err != nil {
		return n, 0, io.ErrUnexpectedEOF
	}
	return n, int64(min(vals[0], 1<<62)), nil
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

// Sink returns a Sink that notes when each generation begins and ends:
// give it to the full Read of the trace the Index was scanned from.
func (ix *Index) Sink() Sink { return (*indexSink)(ix) }

type indexSink Index

func (s *indexSink) Event(ev *trace.Event) {
	t := ev.Time()
	if !s.timed {
		s.timed, s.origin = true, t
	}
	if ev.Kind() == trace.EventSync {
		s.syncs++
		if s.syncs <= len(s.gens) {
			s.gens[s.syncs-1].start = t
		}
	}
	if k := s.syncs; k >= 1 && k <= len(s.gens) {
		s.gens[k-1].fin = max(s.gens[k-1].fin, t)
	}
}

// Generations returns the number of generations indexed.
func (ix *Index) Generations() int { return len(ix.gens) }

// GenerationBytes returns where generation i (from 0) lies in the trace:
// from byte offset to end.
func (ix *Index) GenerationBytes(i int) (offset, end int64) { return ix.gens[i].off, ix.gens[i].end }

// Tiler returns a Tiler for the window [start, end) with times from the
// first event of the whole trace, as ReadWindow needs.
func (ix *Index) Tiler(start, end time.Duration, columns int) *Tiler {
	t := NewTiler(start, end, columns)
	t.started, t.origin = true, ix.origin
	return t
}

// ReadWindow reads only the generations of the trace in r that overlap
// [start, end) (times from the trace's first event) and gives their events
// to the sinks; it returns the bytes it read. The Index must have been
// timed by its Sink.
func (ix *Index) ReadWindow(r io.ReaderAt, start, end time.Duration, sinks ...Sink) (int64, error) {
	if !ix.timed {
		return 0, errors.New("index without times: read the trace once with its Sink")
	}
	from, to := ix.origin+trace.Time(start), ix.origin+trace.Time(end)
	first, last := -1, -1
	for i, g := range ix.gens {
		if g.fin >= from && g.start < to {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, nil
	}
	off, n := ix.gens[first].off, ix.gens[last].end-ix.gens[first].off
	in := io.MultiReader(bytes.NewReader(ix.header), io.NewSectionReader(r, off, n))
	_, err := Read(in, sinks...)
	return n, err
}
