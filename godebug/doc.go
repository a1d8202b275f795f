// Package godebug reads the diagnostic lines the Go runtime writes to
// standard error when GODEBUG asks for them, and summarises them the way an
// experienced Go developer reads them by eye.
//
// It understands, for Go 1.19 to 1.26:
//
//   - gctrace=1 summary lines ("gc 7 @1.2s 3%: ... ms clock, ... ms cpu,
//     4->5->2 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 8 P"), with or
//     without the stacks and globals fields and with the "(forced)" and
//     "(checking for goroutine leaks)" markers;
//   - gctrace=2 "scan:" lines;
//   - gcpacertrace=1 "pacer:" lines;
//   - schedtrace summary lines ("SCHED 1004ms: gomaxprocs=8 ...") and the
//     P, M and G lines scheddetail=1 adds below each of them;
//   - the "GC forced" and scavenger lines gctrace=1 also prints, which are
//     recognised and set aside.
//
// A Scanner reads a stream line by line, in the bufio.Scanner shape
// (Scan, Result, Err), and hands back one Record per line. Lines that are
// not trace lines (a program's own standard error) come back as *Text, so
// a caller can pass them through untouched. Trace lines that cannot be
// parsed come back as *SyntaxError values; they are counted, never fatal.
//
// The runtime prints each trace line in many small writes, so a program
// writing to standard error at the same time can land inside one; the
// Scanner mends such splits when the next line completes the trace line.
//
// MergeGODEBUG merges settings into a program's GODEBUG, and ScanStderr
// reads its standard error as it comes, passing the program's own lines
// on; perflab's internal/program runs the program.
//
// GCAnalyzer and SchedAnalyzer turn the records into a GCSummary and a
// SchedSummary: pause percentiles, GC CPU share, a live-heap trend with a
// leak verdict, idle processors, run-queue lengths and a saturation and
// imbalance verdict. They keep bounded memory however long the stream. A
// stream holding several processes' traces one after another (the GC
// numbering or the clock goes back) is summarised process by process.
//
// The package does no terminal I/O and draws no charts; cmd/perflab builds
// charts from the analyzers' Points.
package godebug
