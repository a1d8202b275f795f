// Package craft writes crafted execution-trace generations, appended to a
// real trace to make hostile inputs for tests and scripts/hostile: the
// trace of issue 24.8, a 100 kB trace followed by 5.36 million
// generations of one batch each in 100 MB, which a reader that believes
// batch headers indexes whole.
package craft

import (
	"bufio"
	"encoding/binary"
	"io"
)

// Wire codes of the trace format (Go 1.25+), from x/exp/trace's
// internal/tracev2.
const (
	evEventBatch      = 1
	evFrequency       = 8
	evSync            = 50
	evClockSnapshot   = 51
	evEndOfGeneration = 52
)

// Options shape the crafted generations.
type Options struct {
	// First is the number of the first generation; the next ones follow.
	First uint64
	// Snapshot adds a clock snapshot to each sync batch, as the runtime
	// writes: each generation is then well-formed for x/exp/trace too.
	// Without it (the hostile trace of issue 24.8), x/exp/trace stops at
	// the first.
	Snapshot bool
	// Tick is the clock of generation i, in nanosecond ticks; nil means
	// i+1, a clock that starts over before any real trace began.
	Tick func(i int) uint64
}

// Append writes n crafted generations to w: each is one sync batch that
// gives the clock's frequency (1e9 ticks a second) and its end of
// generation, 16 to 30 bytes.
func Append(w io.Writer, n int, o Options) error {
	bw := bufio.NewWriter(w)
	var data, batch []byte
	for i := range n {
		tick := uint64(i + 1)
		if o.Tick != nil {
			tick = o.Tick(i)
		}
		data = append(data[:0], evSync, evFrequency)
		data = binary.AppendUvarint(data, 1e9)
		if o.Snapshot {
			data = append(data, evClockSnapshot)
			for _, v := range []uint64{0, tick, tick / 1e9, tick % 1e9} { // tick offset, monotonic, seconds, nanoseconds
				data = binary.AppendUvarint(data, v)
			}
		}
		batch = append(batch[:0], evEventBatch)
		for _, v := range []uint64{o.First + uint64(i), 0, tick, uint64(len(data))} { // generation, M, tick, size
			batch = binary.AppendUvarint(batch, v)
		}
		batch = append(append(batch, data...), evEndOfGeneration)
		if _, err := bw.Write(batch); err != nil {
			return err
		}
	}
	return bw.Flush()
}
