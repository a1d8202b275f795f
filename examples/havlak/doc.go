// Package havlak is the loop-recognition benchmark from Robert Hundt's paper
// "Loop Recognition in C++/Java/Go/Scala" (Scala Days 2011), as profiled and
// tuned in the Go blog's "Profiling Go Programs".
//
// The benchmark builds one large synthetic control-flow graph
// ([BuildBenchmarkCFG], 252,003 basic blocks arranged as 76,000 loops) and
// runs Havlak's loop-finding algorithm over it once, then 50 more times.
// Two implementations share the graph builder:
//
//   - the naive one ([FindHavlakLoops], [FindLoops], [DFS], [LSG]) keeps the
//     original Go port's data structures: maps used as sets, blocks numbered
//     through a map[*BasicBlock]int, and fresh bookkeeping allocated on every
//     call. Its profile reads like the blog's havlak1.
//   - the tuned one ([LoopFinder]) is the end state of the blog's story:
//     slices indexed by block number, bookkeeping kept in the LoopFinder and
//     reused across calls, and the loop graph ([LoopGraph]) reused as well.
//
// [Run] performs the whole benchmark with either; perflab demo runs it
// in-process under the profiler, and cmd/havlak is the standalone program.
package havlak
