// Package loadgen puts HTTP load on a server and measures it: a fixed number
// of requests (N) or a fixed time (Duration), from C concurrent workers,
// optionally at a fixed total rate.
//
// At a fixed rate, every request has an intended send time, start +
// i/Rate. A request whose intended time passes while every worker is busy
// waits for one, and its latency is measured from its intended time, not
// from when it finally went out (wrk2's model, correcting coordinated
// omission). A request that had a free worker waiting for it counts from
// when it went out, so that a late timer on a busy generator is not
// blamed on the server. The uncorrected latencies are kept beside the corrected ones,
// with how many requests went out late and by how much.
//
// Every latency goes into an HDR histogram at nanosecond units and three
// significant digits: no sampling, no cap on the number of requests.
//
// Plain HTTP/1.1 and HTTPS requests use a lean client of this package's
// own (internal/http1) that costs a fraction of net/http's CPU per
// request; HTTP/2, proxies and redirects go through net/http.
//
// Every request sent ends in one count of the Result: a response of any
// status, an error (no response), or unfinished (in flight when the run
// ended); in rate mode the requests due that never went out are counted
// as unsent. Throughput (RPS) counts responses only, and Result.Err says
// when no request got a response at all.
//
// Run stops when the context is canceled, aborting the requests in
// flight, and returns what completed before.
package loadgen
