package collect

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime/trace"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/exectrace"
)

var traced struct {
	once sync.Once
	data []byte
	ends []int64 // where ScanIndex says each generation ends
	err  error
}

// multiGenTrace traces this test binary for 2.1 s, three generations or
// more, once, and returns the trace and where its generations end.
func multiGenTrace(t *testing.T) ([]byte, []int64) {
	t.Helper()
	traced.once.Do(func() {
		var buf bytes.Buffer
		if traced.err = trace.Start(&buf); traced.err != nil {
			return
		}
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Microsecond):
				}
			}
		}()
		time.Sleep(2100 * time.Millisecond) // generations last a second
		close(stop)
		trace.Stop()
		traced.data = buf.Bytes()
		ix, err := exectrace.ScanIndex(bytes.NewReader(traced.data))
		if traced.err = err; err == nil {
			for i := range ix.Generations() {
				_, end := ix.GenerationBytes(i)
				traced.ends = append(traced.ends, end)
			}
		}
	})
	if traced.err != nil {
		t.Skipf("tracing: %v", traced.err)
	}
	return traced.data, traced.ends
}

// pieces calls f with data in pieces of random sizes up to max bytes.
func pieces(data []byte, max int, f func([]byte)) {
	for len(data) > 0 {
		n := min(len(data), 1+rand.IntN(max))
		f(data[:n])
		data = data[n:]
	}
}

// TestGenFramer streams a real trace through a genFramer in pieces of
// random sizes: it tells a generation's end exactly where ScanIndex finds
// one, and nowhere else.
func TestGenFramer(t *testing.T) {
	data, want := multiGenTrace(t)
	var f genFramer
	var got []int64
	off := int64(0)
	pieces(data, 300, func(p []byte) {
		for len(p) > 0 {
			n, end := f.next(p)
			off += int64(n)
			if end {
				got = append(got, off)
			}
			p = p[n:]
		}
	})
	if f.lost || len(got) != len(want) || len(got) == 0 {
		t.Fatalf("ends at %v (lost %v), ScanIndex's at %v", got, f.lost, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("generation %d ends at byte %d, ScanIndex says %d", i, got[i], want[i])
		}
	}
	var old genFramer
	if n, end := old.next([]byte("go 1.25 trace\x00\x00\x00\x01\x02")); !old.lost || end || n != 18 {
		t.Errorf("a Go 1.25 trace, which does not mark the ends: lost %v, end %v, n %d", old.lost, end, n)
	}
}

// TestGenWriterEndsAtGeneration gives a real trace to a genWriter in
// pieces, as the runtime does, and sets over (or the time by which the
// trace should have stopped) at points in the middle of the stream: what it passes on, followed by what it kept, ends exactly at
// the end of the generation being sent, so that it reads to its end (the
// answer used to be cut wherever the backlog was noticed, in the middle of
// a generation, or of the first, leaving nothing readable).
func TestGenWriterEndsAtGeneration(t *testing.T) {
	data, ends := multiGenTrace(t)
	if len(ends) < 2 {
		t.Skipf("%d generations", len(ends))
	}
	// As runtime/trace does, the header is written on its own; over set
	// right after it must still send the first generation whole (it once
	// sent the header alone: a trace with no events).
	for i, at := range []int64{0, wireHeaderLen, ends[0] / 2, ends[0], ends[0] + 1, (ends[0] + ends[1]) / 2} {
		// Over is set by runTrace, or by the writer itself when the trace
		// goes on past its end (late).
		late := i%2 == 0
		var out bytes.Buffer
		gw := newGenWriter(&out, 1<<40)
		off, sent := int64(0), int64(-1) // sent: what was passed on when over was set
		feed := func(p []byte) {
			if sent < 0 && off < at && off+int64(len(p)) > at {
				// A piece across at is split there, so that over is set
				// at at, not after a piece that may run to the end.
				gw.Write(p[:at-off])
				p, off = p[at-off:], at
			}
			if off >= at && sent < 0 {
				if late {
					gw.until = time.Now().Add(-time.Millisecond)
				} else {
					gw.over.Store(true)
				}
				sent = int64(out.Len())
			}
			gw.Write(p)
			off += int64(len(p))
		}
		feed(data[:wireHeaderLen])
		pieces(data[wireHeaderLen:], 64<<10, feed)
		passed := out.Len()
		for _, b := range gw.kept.bufs {
			out.Write(b)
		}
		want := int64(-1) // the end of the generation being sent then
		for _, e := range ends {
			if e >= sent {
				want = e
				break
			}
		}
		if gw.cut || int64(out.Len()) != want || !bytes.Equal(out.Bytes(), data[:out.Len()]) {
			t.Errorf("over (late %v) after byte %d: passed %d bytes on and kept %d (cut %v), want the trace up to a generation's end %v",
				late, at, passed, out.Len()-passed, gw.cut, ends)
		}
		select {
		case <-gw.done:
		default:
			// runTrace ends the answer on done, without waiting for the
			// trace's stop, which a busy program delays by minutes.
			t.Errorf("over (late %v) after byte %d: the answer is final but done was not closed", late, at)
		}
		a := exectrace.NewAnalyzer()
		if info, err := exectrace.Read(bytes.NewReader(out.Bytes()), a); err != nil || info.Events == 0 {
			t.Errorf("over after byte %d: %d events, then %v", at, info.Events, err)
		}
	}
}

// TestGenWriterStopsTrace checks that a genWriter that finds the trace
// late stops it itself, once, whatever more it is given: runTrace, woken by
// a timer, can wait seconds for a CPU in a busy program.
func TestGenWriterStopsTrace(t *testing.T) {
	data, _ := multiGenTrace(t)
	stopped := make(chan struct{}, 8)
	gw := newGenWriter(io.Discard, 1<<40)
	gw.stop = func() { stopped <- struct{}{} }
	pieces(data, 4<<10, func(p []byte) { gw.Write(p) })
	if len(stopped) != 0 {
		t.Fatal("stopped before the trace was late")
	}
	gw.until = time.Now().Add(-time.Millisecond)
	pieces(data, 4<<10, func(p []byte) { gw.Write(p) })
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("a late trace was not stopped")
	}
	time.Sleep(50 * time.Millisecond)
	if n := len(stopped); n != 0 {
		t.Errorf("stopped %d more times", n)
	}
}

// TestGenWriterBounded checks that a genWriter whose kept rest of a generation
// passes twice its limit sends it rather than cut it, and that the first
// generation, which a trace needs to be read at all, is held back until
// it ends and then sent whole, or, if it passes twice the limit first,
// not sent at all: the trace is refused (it used to be kept whatever its
// size, 2 GB and more in a program that keeps every P busy, and cut by
// the client or the answer's end, unreadable).
func TestGenWriterBounded(t *testing.T) {
	data, ends := multiGenTrace(t)

	var out bytes.Buffer
	stopped := make(chan struct{}, 2)
	gw := newGenWriter(&out, uint64(ends[0])/4)
	gw.stop = func() { stopped <- struct{}{} }
	pieces(data[:ends[0]], 4<<10, func(p []byte) { gw.Write(p) })
	if !gw.refused {
		t.Fatalf("a first generation of %d bytes against a %d-byte limit was not refused (%d bytes held)", ends[0], gw.limit, gw.held.size)
	}
	gw.Write(data[ends[0]:])
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Error("a refused trace was not stopped")
	}
	if out.Len() != 0 || gw.held.bufs != nil {
		t.Errorf("refused trace: %d bytes passed on, %d chunks held; want nothing sent or held", out.Len(), len(gw.held.bufs))
	}

	out.Reset()
	gw = newGenWriter(&out, 1<<40)
	at := int64(wireHeaderLen) + 1000
	gw.Write(data[:at])
	if out.Len() != 0 {
		t.Errorf("%d bytes passed on before the first generation ended", out.Len())
	}
	pieces(data[at:ends[0]], 4<<10, func(p []byte) { gw.Write(p) })
	if !bytes.Equal(out.Bytes(), data[:ends[0]]) || gw.held.bufs != nil {
		t.Errorf("first generation of %d bytes: passed on %d bytes (whole: %v), %d chunks still held", ends[0], out.Len(), bytes.Equal(out.Bytes(), data[:ends[0]]), len(gw.held.bufs))
	}

	// The rest of a later generation past twice the limit is sent as it
	// passes, not dropped: the answer is never cut inside a generation (it
	// used to be, and the client saw the answer break off).
	out.Reset()
	gw = newGenWriter(&out, 1<<40)
	at = ends[0] + 1000
	gw.Write(data[:at])
	gw.over.Store(true)
	const piece = 4 << 10
	gw.limit = uint64(ends[1]-at) / 4
	pieces(data[at:], piece, func(p []byte) { gw.Write(p) })
	passed := out.Len()
	for _, b := range gw.kept.bufs {
		out.Write(b)
	}
	if gw.cut || !bytes.Equal(out.Bytes(), data[:ends[1]]) || passed <= int(at) {
		t.Errorf("the rest of generation 2 (%d bytes) past twice a %d-byte limit: cut %v, %d bytes passed on and %d kept, want the trace to the end of generation 2 (%d bytes), part of its rest sent before the end",
			ends[1]-at, gw.limit, gw.cut, passed, out.Len()-passed, ends[1])
	}
	if most := 2*int64(gw.limit) + piece; gw.kept.peak > most {
		t.Errorf("kept %d bytes at most, want at most %d: the rest is sent as it passes twice the limit", gw.kept.peak, most)
	}
	select {
	case <-gw.done:
	default:
		t.Error("generation 2 ended but done was not closed")
	}
	if info, err := exectrace.Read(bytes.NewReader(out.Bytes()), exectrace.NewAnalyzer()); err != nil || info.Events == 0 {
		t.Errorf("the trace to the end of generation 2: %d events, then %v", info.Events, err)
	}
}

// FuzzGenFramer follows any bytes: no panic, every byte is counted once,
// and an end is told only right after an end-of-generation byte.
func FuzzGenFramer(f *testing.F) {
	f.Add([]byte("go 1.26 trace\x00\x00\x00\x01\x05\x00\x01\x02\x34\x34"), 3)
	f.Add([]byte("go 1.26 trace\x00\x00\x00\x31\x07\x05\x00\x01\x00\x34\x01"), 1)
	f.Add([]byte("go 1.25 trace\x00\x00\x00\x34"), 7)
	f.Fuzz(func(t *testing.T, data []byte, piece int) {
		piece = 1 + max(piece, 0)%64
		var fr genFramer
		total := 0
		for rest := data; len(rest) > 0; {
			p := rest[:min(len(rest), piece)]
			for len(p) > 0 {
				n, end := fr.next(p)
				if n <= 0 || n > len(p) {
					t.Fatalf("next took %d of %d bytes", n, len(p))
				}
				if end && (p[n-1] != wireEndOfGeneration || fr.lost) {
					t.Fatalf("an end told after byte %#x", p[n-1])
				}
				total += n
				p, rest = p[n:], rest[n:]
			}
		}
		if total != len(data) {
			t.Fatalf("counted %d of %d bytes", total, len(data))
		}
	})
}
