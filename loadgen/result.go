package loadgen

import (
	"cmp"
	"slices"
	"time"
)

// A Result is what a run measured.
type Result struct {
	Requests    int64         // completed requests, errors included
	Responses   int64         // requests that got a response, of any status
	ErrorCount  int64         // requests that failed
	Errors      []ErrorCount  // by kind, most frequent first
	StatusCodes map[int]int64 // responses by status code
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

// RPS is the number of completed requests per second.
func (r *Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
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
