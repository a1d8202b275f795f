package exectrace_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// syncOnlyTrace writes the trace of x/exp/trace's go125-sync test: three
// generations of sync batches (clock frequency and snapshot) with empty
// stack and string tables, and a P's status in the first and the last; no
// GOMAXPROCS, no goroutine.
func syncOnlyTrace() []byte {
	b := []byte("go 1.25 trace\x00\x00\x00")
	uv := func(vs ...uint64) []byte {
		var out []byte
		for _, v := range vs {
			out = binary.AppendUvarint(out, v)
		}
		return out
	}
	batch := func(gen, m, ts uint64, data ...byte) {
		b = append(append(b, 1), uv(gen, m, ts, uint64(len(data)))...)
		b = append(b, data...)
	}
	const (
		noM                                         = math.MaxUint64
		stacks, strs, freq, procStatus, sync, clock = 2, 4, 8, 13, 50, 51
	)
	syncBatch := func(gen, ts, hz, mono, sec uint64) {
		batch(gen, noM, ts, append(append([]byte{sync, freq}, uv(hz)...), append([]byte{clock}, uv(1, mono, sec, 123)...)...)...)
	}
	syncBatch(1, 9, 1e9, 99, 1740755049)
	batch(1, 1, 15, append([]byte{procStatus}, uv(1, 0, 1)...)...)
	batch(1, noM, 11, stacks)
	batch(1, noM, 12, strs)
	syncBatch(2, 19, 5e8, 199, 1740755050)
	batch(2, noM, 21, stacks)
	batch(2, noM, 22, strs)
	syncBatch(3, 29, 5e8, 299, 1740755051)
	batch(3, 1, 40, append([]byte{procStatus}, uv(1, 0, 1)...)...)
	batch(3, noM, 31, stacks)
	batch(3, noM, 32, strs)
	return b
}

// TestSyncOnlyTrace: a trace without GOMAXPROCS or goroutine events says
// so, in the text and in JSON, rather than "GOMAXPROCS 0" above an empty
// table of states.
func TestSyncOnlyTrace(t *testing.T) {
	s, _ := summarize(t, syncOnlyTrace())
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"not in the trace", "GOMAXPROCS (no /sched/gomaxprocs:threads metric)", "goroutine events"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"GOMAXPROCS  0", "procs busy", "time of all goroutines by state", "Ps busy on average"} {
		if strings.Contains(text, bad) {
			t.Errorf("text says %q of a trace without it:\n%s", bad, text)
		}
	}
	if lacks := jsonLacks(t, s); len(lacks) != 2 {
		t.Errorf("JSON lacks %q, want GOMAXPROCS and goroutine events", lacks)
	}
	full, _ := summarize(t, tracefreqTrace(t, "find", 50))
	if lacks := jsonLacks(t, full); lacks == nil || len(lacks) != 0 {
		t.Errorf("a real program's trace: JSON lacks %#v, want []", lacks)
	}
}

// jsonLacks returns the "lacks" of the summary's JSON.
func jsonLacks(t *testing.T, s json.Marshaler) []string {
	t.Helper()
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Lacks []string }
	if err := json.Unmarshal(js, &m); err != nil {
		t.Fatal(err)
	}
	return m.Lacks
}
