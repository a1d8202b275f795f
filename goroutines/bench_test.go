package goroutines_test

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

var (
	benchOnce sync.Once
	benchDump []byte
)

// bigDump returns debug=2 text of 200,000 goroutines in the shapes of
// goroutines/internal/parkdump's (which scripts/bench-goroutines runs for
// real): five kinds, one to five frames, argument words that differ
// between goroutines.
func bigDump() []byte {
	benchOnce.Do(func() {
		var b bytes.Buffer
		b.WriteString("goroutine 1 [running]:\nmain.main()\n\t/tmp/pd/main.go:49 +0x38e\n")
		kinds := []string{
			"[chan receive]:\nmain.receiver()\n\t/tmp/pd/main.go:58 +0x25\n",
			"[select]:\nmain.selecter()\n\t/tmp/pd/main.go:63 +0x5a\n",
			"[sleep]:\ntime.Sleep(0x34630b8a000)\n\t/usr/local/go/src/runtime/time.go:363 +0x165\nmain.sleeper()\n\t/tmp/pd/main.go:71 +0x2a\n",
			"[chan receive]:\nmain.receiver(...)\n\t/tmp/pd/main.go:58\nmain.nested(0x0?)\n\t/tmp/pd/main.go:85 +0x3a\nmain.nested(0x1?)\n\t/tmp/pd/main.go:82 +0x1a\n",
			"[sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(0x%x?, 0x0?, 0x1?)\n\t/usr/local/go/src/runtime/sema.go:95 +0x25\ninternal/sync.(*Mutex).lockSlow(0x5b6c40)\n\t/usr/local/go/src/internal/sync/mutex.go:149 +0x15d\nsync.(*Mutex).Lock(...)\n\t/usr/local/go/src/sync/mutex.go:46\nmain.locker()\n\t/tmp/pd/main.go:76 +0x2e\n",
		}
		for i := range 200000 {
			fmt.Fprintf(&b, "\ngoroutine %d ", i+2)
			fmt.Fprintf(&b, kinds[i%len(kinds)], 0xc000100000+i*64)
			fmt.Fprintf(&b, "created by main.main in goroutine 1\n\t/tmp/pd/main.go:%d +0x%x\n", 36+2*(i%5), 0x2f+i%5)
		}
		benchDump = b.Bytes()
	})
	return benchDump
}

// BenchmarkRead groups 200,000 goroutines; scripts/bench-goroutines
// compares the whole command with panicparse's pp.
func BenchmarkRead(b *testing.B) {
	data := bigDump()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		d := goroutines.NewDump()
		if err := goroutines.Read("bench", bytes.NewReader(data), d, goroutines.Options{}); err != nil {
			b.Fatal(err)
		}
		if d.Total != 200001 || len(d.Groups) != 6 {
			b.Fatalf("%d goroutines in %d groups", d.Total, len(d.Groups))
		}
	}
}
