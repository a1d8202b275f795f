// Package scrape pulls profiles from a fleet's programs into perflab
// server's store: the pull half of the fleet's write path, beside package
// ingest's push half.
//
// A Config lists jobs, as Prometheus' scrape_configs do (ReadConfig,
// ParseConfig), or as -scrape JOB=ADDR[,ADDR] flags give them (ParseSpec).
// Each job's targets are the programs' /debug/pprof/ trees, served by
// net/http/pprof or by package collect (whose token the job's
// authorization carries). Every profile is stored in the series
// {__name__=KIND, service_name=JOB, instance=TARGET, ...the target's
// labels}.
//
// # What is fetched
//
// The kinds are store.Kinds': cpu, allocs and goroutine by default; heap,
// mutex, block, wall and goroutineleak when a job lists them. CPU and
// wall-clock profiles are fetched back to back with seconds set to the
// job's interval, so that they cover the program's time without gaps.
// allocs and heap are one fetch of the heap profile (series memory).
// Cumulative profiles (the memory profile's alloc_* sample types, mutex,
// block) are stored as their growth between two scrapes: the first scrape
// of a target only sets the baseline, and a counter that went down (the
// program restarted) sets a new one.
//
// # Many targets
//
// A Scraper scrapes each target's kinds on their own, at an offset within
// the interval that depends on the target, so that a thousand targets do
// not fire at once; it reads, decodes and writes at most
// Options.MaxConcurrent profiles at once, each read within
// Options.MaxProfileBytes by package profiles; a failing target is
// retried after a wait that doubles with each failure, and never holds up
// the others. Its Targets (and /targets, its ServeHTTP) tell how each
// target does.
package scrape
