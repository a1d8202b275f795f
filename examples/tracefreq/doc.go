// Package tracefreq is the execution-tracing case study of the Ultimate Go
// "Profiling and Tracing" notes: count how often a topic appears in the
// titles and descriptions of N RSS documents (4000 by default, topic
// "president"). A CPU profile only says the time goes to xml.Unmarshal;
// the execution trace shows what is not happening: one P busy at a time
// while the others idle. The fix is to spread the documents over
// goroutines, and tasks and regions (runtime/trace.NewTask, StartRegion)
// explain what each goroutine does.
//
// The variants are the article's: Find (one goroutine), FindConcurrent
// (one goroutine per document), FindConcurrentSem (the same, at most
// GOMAXPROCS running), FindNumCPU (GOMAXPROCS goroutines sharing a
// channel of documents), FindActor (one goroutine per stage, documents
// flowing through channels) and FindNumCPUTasks (FindNumCPU with a task
// per worker and a region per document). The documents are generated in
// memory, deterministically, so every run searches the same data.
//
// Command tracefreq runs one variant under the tracer:
//
//	tracefreq -variant=findNumCPU -trace=trace.out
//	perflab trace trace.out
package tracefreq
