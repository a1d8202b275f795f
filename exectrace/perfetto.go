package exectrace

import (
	"bufio"
	"fmt"
	"io"

	"golang.org/x/exp/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// Field numbers of Perfetto's trace format (protos/perfetto/trace in the
// Perfetto repository): a Trace is a sequence of TracePackets.
const (
	pfTracePacket = 1 // Trace.packet

	pfTimestamp       = 8  // TracePacket.timestamp
	pfSequenceID      = 10 // TracePacket.trusted_packet_sequence_id
	pfTrackEvent      = 11 // TracePacket.track_event
	pfTrackDescriptor = 60 // TracePacket.track_descriptor

	pfTrackUUID    = 1 // TrackDescriptor.uuid
	pfTrackName    = 2 // TrackDescriptor.name
	pfTrackCounter = 8 // TrackDescriptor.counter (CounterDescriptor)

	pfEventType    = 9  // TrackEvent.type
	pfEventTrack   = 11 // TrackEvent.track_uuid
	pfEventName    = 23 // TrackEvent.name
	pfEventCounter = 30 // TrackEvent.counter_value

	pfSliceBegin = 1 // TrackEvent.Type values
	pfSliceEnd   = 2
	pfCounter    = 4
)

// Track uuids: Ps count from procTrack, the rest are fixed.
const (
	gcTrack         = 1
	goroutinesTrack = 2
	heapTrack       = 3
	procTrack       = 100
)

// A Perfetto converts a trace to Perfetto's protobuf format as it is read,
// for ui.perfetto.dev: a track per P with a slice for each goroutine run,
// a GC track with the mark phases and stop-the-world pauses, and counters
// of goroutines alive and heap size. It keeps only the running goroutines'
// Ps and the open ranges.
type Perfetto struct {
	w       *bufio.Writer
	err     error
	started bool
	start   trace.Time
	procs   map[trace.ProcID]bool
	onProc  map[trace.GoID]trace.ProcID
	alive   int64
	buf     []byte
	pkt     []byte
}

// NewPerfetto returns a converter writing to w; call Close at the end.
func NewPerfetto(w io.Writer) *Perfetto {
	p := &Perfetto{w: bufio.NewWriterSize(w, 256<<10), procs: make(map[trace.ProcID]bool), onProc: make(map[trace.GoID]trace.ProcID)}
	p.track(gcTrack, "GC", false)
	p.track(goroutinesTrack, "goroutines", true)
	p.track(heapTrack, "heap bytes", true)
	return p
}

var _ Sink = (*Perfetto)(nil)

// Event converts one event.
func (p *Perfetto) Event(ev *trace.Event) {
	if !p.started {
		p.started, p.start = true, ev.Time()
	}
	switch ev.Kind() {
	case trace.EventStateTransition:
		if st := ev.StateTransition(); st.Resource.Kind == trace.ResourceGoroutine {
			p.goroutine(ev, st)
		}
	case trace.EventRangeBegin, trace.EventRangeEnd:
		r := ev.Range()
		if r.Name == "GC concurrent mark phase" || len(r.Name) > 14 && r.Name[:14] == "stop-the-world" {
			p.slice(ev.Time(), gcTrack, ev.Kind() == trace.EventRangeBegin, r.Name)
		}
	case trace.EventMetric:
		if m := ev.Metric(); m.Name == "/memory/classes/heap/objects:bytes" {
			p.counter(ev.Time(), heapTrack, int64(m.Value.Uint64()))
		}
	}
}

func (p *Perfetto) goroutine(ev *trace.Event, st trace.StateTransition) {
	id := st.Resource.Goroutine()
	from, to := st.Goroutine()
	if from == trace.GoNotExist || from == trace.GoUndetermined {
		if to != trace.GoNotExist {
			p.alive++
			p.counter(ev.Time(), goroutinesTrack, p.alive)
		}
	} else if to == trace.GoNotExist {
		p.alive--
		p.counter(ev.Time(), goroutinesTrack, p.alive)
	}
	if pr, ok := p.onProc[id]; ok && to != trace.GoRunning {
		delete(p.onProc, id)
		p.slice(ev.Time(), procTrack+uint64(pr), false, "")
	}
	if to == trace.GoRunning && from != trace.GoRunning && ev.Proc() >= 0 {
		pr := ev.Proc()
		if !p.procs[pr] {
			p.procs[pr] = true
			p.track(procTrack+uint64(pr), fmt.Sprintf("P%d", pr), false)
		}
		p.onProc[id] = pr
		p.slice(ev.Time(), procTrack+uint64(pr), true, fmt.Sprintf("G%d", id))
	}
}

// track describes a track.
func (p *Perfetto) track(uuid uint64, name string, counter bool) {
	d := appendVarintField(nil, pfTrackUUID, uuid)
	d = appendStringField(d, pfTrackName, name)
	if counter {
		d = appendBytesField(d, pfTrackCounter, nil)
	}
	p.pkt = appendBytesField(p.pkt[:0], pfTrackDescriptor, d)
	p.packet(-1)
}

// slice begins or ends a slice on a track.
func (p *Perfetto) slice(t trace.Time, track uint64, begin bool, name string) {
	typ := uint64(pfSliceEnd)
	if begin {
		typ = pfSliceBegin
	}
	e := appendVarintField(p.buf[:0], pfEventType, typ)
	e = appendVarintField(e, pfEventTrack, track)
	if begin {
		e = appendStringField(e, pfEventName, name)
	}
	p.event(t, e)
}

func (p *Perfetto) counter(t trace.Time, track uint64, v int64) {
	e := appendVarintField(p.buf[:0], pfEventType, pfCounter)
	e = appendVarintField(e, pfEventTrack, track)
	e = appendVarintField(e, pfEventCounter, uint64(v))
	p.event(t, e)
}

func (p *Perfetto) event(t trace.Time, e []byte) {
	p.buf = e
	p.pkt = appendBytesField(p.pkt[:0], pfTrackEvent, e)
	p.packet(int64(t - p.start))
}

// packet writes p.pkt as one TracePacket, with its timestamp if ts >= 0.
func (p *Perfetto) packet(ts int64) {
	if p.err != nil {
		return
	}
	body := p.pkt
	if ts >= 0 {
		body = appendVarintField(body, pfTimestamp, uint64(ts))
	}
	body = appendVarintField(body, pfSequenceID, 1)
	// The packet goes out as its length-delimited header, then the body.
	head := protowire.AppendVarint(protowire.AppendTag(nil, pfTracePacket, protowire.BytesType), uint64(len(body)))
	if _, err := p.w.Write(head); err != nil {
		p.err = err
		return
	}
	if _, err := p.w.Write(body); err != nil {
		p.err = err
	}
	p.pkt = body
}

// Close flushes the output and returns the first write error.
func (p *Perfetto) Close() error {
	if p.err != nil {
		return p.err
	}
	return p.w.Flush()
}

// appendVarintField appends field num of varint value v to b.
func appendVarintField(b []byte, num protowire.Number, v uint64) []byte {
	return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
}

// appendBytesField appends field num of bytes value v to b.
func appendBytesField(b []byte, num protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), v)
}

// appendStringField appends field num of string value v to b.
func appendStringField(b []byte, num protowire.Number, v string) []byte {
	return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), v)
}
