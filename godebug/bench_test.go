package godebug

import (
	"bytes"
	"fmt"
	"testing"
)

// benchTrace makes n gctrace lines and n schedtrace lines, with program
// output between them, as a long-running server's standard error.
func benchTrace(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "gc %d @%d.%01ds 2%%: 0.021+1.%d+0.034 ms clock, 0.084+0.20/1.1/0.31+0.13 ms cpu, %d->%d->%d MB, %d MB goal, 0 MB stacks, 0 MB globals, 8 P\n",
			i, i/10, i%10, i%10, 40+i%7, 42+i%7, 20+i%5, 44)
		fmt.Fprintf(&b, "SCHED %dms: gomaxprocs=8 idleprocs=%d threads=12 spinningthreads=1 needspinning=0 idlethreads=3 runqueue=%d [ 0 1 %d 0 2 0 0 1 ] schedticks=[ 1 2 3 4 5 6 7 8 ]\n",
			i*100, i%8, i%13, i%5)
		b.WriteString("2026/11/22 10:00:00 served request 200 OK in 1.2ms\n")
	}
	return b.Bytes()
}

// BenchmarkScan measures parsing and analysing a mixed trace.
func BenchmarkScan(b *testing.B) {
	data := benchTrace(10000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var gc GCAnalyzer
		var sched SchedAnalyzer
		s := NewScanner(bytes.NewReader(data))
		for s.Scan() {
			gc.Add(s.Result())
			sched.Add(s.Result())
		}
		gc.Summary(0)
		sched.Summary()
	}
}
