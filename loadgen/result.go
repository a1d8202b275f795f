package loadgen

import (
	"cmp"
	"slices"
	"time"
)

// A Result is what a run measured.
//
// Every request the run sent ends in exactly one of three counts: it got
// a response of any status (Responses), it failed without one, by a
// transport error, a timeout or a malformed response (ErrorCount), or it
// was still in flight when the run ended and was abandoned (Unfinished).
// In rate mode, Unsent counts the requests the schedule called for that
// never went out.
type Result struct {
	URL         string        // the URL loaded
	Requests    int64         // completed requests: Responses + ErrorCount
	Responses   int64         // requests that got a response, of any status
	ErrorCount  int64         // requests that failed without a response
	Errors      []ErrorCount  // by kind, most frequent first
	StatusCodes map[int]int64 // responses by status code
	// ServerErrors counts the responses with a 5xx status; they are also
	// in Responses and StatusCodes, as hey counts them.
	ServerErrors int64
	// Unfinished counts the requests sent but still in flight when the
	// run ended (Duration + EndGrace passed, or ctx was canceled); they
	// were abandoned and are in no other count.
	Unfinished int64
	// Unsent counts, in rate mode, the requests whose intended send time
	// came before the run stopped sending but that never went out: every
	// worker was busy with an earlier request until the end.
	Unsent int64

	Bytes       int64         // response body bytes
	Elapsed     time.Duration // from the start to the last completion
	Rate        float64       // the target rate, 0 if none
	Interrupted bool          // the context was canceled before the end

	// Latency is measured from each request's send time, except in rate
	// mode for a request whose intended send time passed while every
	// worker was busy: its latency runs from its intended time (corrected
	// for coordinated omission, as wrk2 does).
	Latency Dist
	// Uncorrected is measured from each request's actual send time; only
	// in rate mode (else it equals Latency and is left empty).
	Uncorrected Dist
	// Late counts the requests that went out more than LateThreshold after
	// their intended time, and Lateness is the distribution of how late
	// every request went out; only in rate mode.
	// LateQueued of the Late requests waited for a busy worker; the others
	// had a worker waiting for them and went out late because the
	// generator's timer woke late.
	Late       int64
	LateQueued int64
	Lateness   Dist

	// Phases of a request, as hey's Details section shows them.
	DNSDialup, DNS, Write, Wait, Read Phase
}

// A Phase is the mean, fastest and slowest time spent in one part of a
// request, over all responses.
type Phase struct {
	Mean, Min, Max time.Duration
}

// RPS is the number of responses, of any status, per second: the
// server's throughput. Failed requests are not counted (hey counts them);
// ErrorsPerSecond does.
func (r *Result) RPS() float64 { return r.perSecond(r.Responses) }

// ErrorsPerSecond is the number of requests that failed without a
// response per second.
func (r *Result) ErrorsPerSecond() float64 { return r.perSecond(r.ErrorCount) }

func (r *Result) perSecond(n int64) float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(n) / r.Elapsed.Seconds()
}

// result merges the shards into a Result.
func result(shards []*shard, rate bool) *Result {
	r := &Result{StatusCodes: map[int]int64{}}
	lat, unc, lateness := newHistogram(), newHistogram(), newHistogram()
	var latSum, uncSum, lateSum int64
	var phases [5]phase
	errs := map[string]*ErrorCount{}
	for _, s := range shards {
		s.mu.Lock()
		lat.Merge(s.lat)
		latSum += s.latSum
		if rate {
			unc.Merge(s.unc)
			lateness.Merge(s.lateness)
			uncSum += s.uncSum
			lateSum += s.lateSum
			r.Late += s.late
			r.LateQueued += s.lateQueued
		}
		if s.responses > 0 {
			for i := range phases {
				phases[i].merge(&s.phases[i], r.Responses == 0)
			}
		}
		r.Responses += s.responses
		r.Bytes += s.bytes
		for code, n := range s.status {
			r.StatusCodes[code] += n
			if code >= 500 && code <= 599 {
				r.ServerErrors += n
			}
		}
		for kind, e := range s.errs {
			if m := errs[kind]; m != nil {
				m.Count += e.Count
			} else {
				errs[kind] = &ErrorCount{Kind: e.Kind, Count: e.Count, Example: e.Example}
			}
		}
		s.mu.Unlock()
	}
	for _, e := range errs {
		r.Errors = append(r.Errors, *e)
		r.ErrorCount += e.Count
	}
	slices.SortFunc(r.Errors, func(a, b ErrorCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Kind, b.Kind))
	})
	r.Requests = r.Responses + r.ErrorCount
	r.Latency = newDist(lat, latSum)
	if rate {
		r.Uncorrected = newDist(unc, uncSum)
		r.Lateness = newDist(lateness, lateSum)
	}
	if r.Responses > 0 {
		for i, p := range []*Phase{&r.DNSDialup, &r.DNS, &r.Write, &r.Wait, &r.Read} {
			*p = Phase{Mean: time.Duration(phases[i].sum / r.Responses),
				Min: time.Duration(phases[i].min), Max: time.Duration(phases[i].max)}
		}
	}
	return r
}
