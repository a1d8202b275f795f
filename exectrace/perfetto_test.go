package exectrace_test

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/perflab/perflab/exectrace"
	"golang.org/x/exp/trace"
	"google.golang.org/protobuf/encoding/protowire"
)

// runCounter counts goroutines starting to run on a P.
type runCounter struct{ n int }

func (c *runCounter) Event(ev *trace.Event) {
	if ev.Kind() != trace.EventStateTransition {
		return
	}
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return
	}
	from, to := st.Goroutine()
	if to == trace.GoRunning && from != trace.GoRunning && ev.Proc() >= 0 {
		c.n++
	}
}

// pfEvent is a decoded TrackEvent.
type pfEvent struct {
	ts    uint64
	typ   uint64
	track uint64
	name  string
}

// decodePerfetto decodes a Perfetto trace: track names by uuid and events.
func decodePerfetto(t *testing.T, b []byte) (map[uint64]string, []pfEvent) {
	t.Helper()
	tracks := map[uint64]string{}
	var events []pfEvent
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num != 1 || typ != protowire.BytesType {
			t.Fatalf("want a TracePacket (field 1, bytes), got field %d type %d", num, typ)
		}
		b = b[n:]
		pkt, n := protowire.ConsumeBytes(b)
		if n < 0 {
			t.Fatal("truncated packet")
		}
		b = b[n:]
		var ev pfEvent
		seq := false
		fields(t, pkt, func(num protowire.Number, v uint64, sub []byte) {
			switch num {
			case 8:
				ev.ts = v
			case 10:
				seq = v == 1
			case 60:
				var uuid uint64
				var name string
				fields(t, sub, func(num protowire.Number, v uint64, s []byte) {
					switch num {
					case 1:
						uuid = v
					case 2:
						name = string(s)
					}
				})
				tracks[uuid] = name
			case 11:
				fields(t, sub, func(num protowire.Number, v uint64, s []byte) {
					switch num {
					case 9:
						ev.typ = v
					case 11:
						ev.track = v
					case 23:
						ev.name = string(s)
					}
				})
				events = append(events, ev)
			}
		})
		if !seq {
			t.Fatal("packet without trusted_packet_sequence_id 1")
		}
	}
	return tracks, events
}

// fields calls f for each field of a message: varints with v, bytes with sub.
func fields(t *testing.T, b []byte, f func(num protowire.Number, v uint64, sub []byte)) {
	t.Helper()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatal("bad tag")
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatal("bad varint")
			}
			f(num, v, nil)
			b = b[n:]
		case protowire.BytesType:
			s, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatal("bad bytes")
			}
			f(num, 0, s)
			b = b[n:]
		default:
			t.Fatalf("unexpected wire type %d", typ)
		}
	}
}

func TestPerfettoDecodesBack(t *testing.T) {
	data, err := os.ReadFile("testdata/small.trace")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := exectrace.NewPerfetto(&out)
	var runs runCounter
	if _, err := exectrace.Read(bytes.NewReader(data), p, &runs); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	tracks, events := decodePerfetto(t, out.Bytes())
	open := map[uint64]int{}
	begins := 0
	var last uint64
	for _, ev := range events {
		if _, ok := tracks[ev.track]; !ok {
			t.Fatalf("event on undeclared track %d", ev.track)
		}
		if ev.ts < last {
			t.Fatalf("timestamps go back: %d after %d", ev.ts, last)
		}
		last = ev.ts
		switch ev.typ {
		case 1:
			open[ev.track]++
			if ev.track >= 100 {
				begins++
				if open[ev.track] > 1 || ev.name == "" {
					t.Fatalf("P track %s: slice %q begins inside another", tracks[ev.track], ev.name)
				}
			}
		case 2:
			open[ev.track]--
			if open[ev.track] < 0 {
				t.Fatalf("track %s: slice ends without a begin", tracks[ev.track])
			}
		}
	}
	if begins != runs.n || begins == 0 {
		t.Errorf("%d goroutine slices on P tracks, the trace has %d runs", begins, runs.n)
	}
	for _, name := range []string{"GC", "goroutines", "heap bytes", "P0"} {
		found := false
		for _, n := range tracks {
			found = found || n == name
		}
		if !found {
			t.Errorf("no track %q in %v", name, fmt.Sprint(tracks))
		}
	}
}
