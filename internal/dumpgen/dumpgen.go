// Package dumpgen writes synthetic goroutine dumps, in the text format of
// a panic or of debug=2, for the tests of package goroutines and the
// hostile-input repros of scripts/hostile/goroutines: dumps too large or
// too varied for a real program to print are made, not committed.
package dumpgen

import (
	"bufio"
	"io"
	"strconv"
)

// Distinct writes n goroutines to w, each parked in a function of its own
// (main.worker0, main.worker1, ...) and so a group of its own, but every
// every-th one (if every > 0), which waits in main.leak: one large group
// among n distinct ones. It returns the bytes written. A million
// goroutines make about 200 MB, as a dump of a server with a leak in
// every handler would.
func Distinct(w io.Writer, n, every int) (int64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var written int64
	var line []byte
	for i := range n {
		fn, file := "main.worker", "/home/user/go/src/example.com/server/worker.go"
		id := i
		if every > 0 && i%every == 0 {
			fn, file, id = "main.leak", "/home/user/go/src/example.com/server/leak.go", 0
		}
		line = append(line[:0], "goroutine "...)
		line = strconv.AppendInt(line, int64(i+1), 10)
		line = append(line, " [chan receive, 12 minutes]:\nruntime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0xce\n"...)
		line = append(line, fn...)
		if fn == "main.worker" {
			line = strconv.AppendInt(line, int64(id), 10)
		}
		line = append(line, "(0xc000010000)\n\t"...)
		line = append(line, file...)
		line = append(line, ':')
		line = strconv.AppendInt(line, int64(10+id%1000), 10)
		line = append(line, " +0x25\ncreated by main.serve in goroutine 1\n\t/home/user/go/src/example.com/server/main.go:40 +0x99\n\n"...)
		k, err := bw.Write(line)
		written += int64(k)
		if err != nil {
			return written, err
		}
	}
	return written, bw.Flush()
}
