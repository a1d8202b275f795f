package loadgen

import (
	"encoding/json"
	"io"
	"strconv"
)

// JSON is the document WriteJSON writes; docs/load.md describes it. All
// times are in seconds.
type JSON struct {
	Requests          int64            `json:"requests"`
	Responses         int64            `json:"responses"`
	DurationSeconds   float64          `json:"duration_seconds"`
	RPS               float64          `json:"rps"`
	ErrorsPerSecond   float64          `json:"errors_per_second"`
	Errors            int64            `json:"errors"`
	ServerErrors      int64            `json:"server_errors"`
	Unfinished        int64            `json:"unfinished"`
	Unsent            int64            `json:"unsent"`
	ErrorDistribution []JSONError      `json:"error_distribution"`
	StatusCodes       map[string]int64 `json:"status_codes"`
	BytesTotal        int64            `json:"bytes_total"`
	Latency           JSONDist         `json:"latency_seconds"`
	Uncorrected       *JSONDist        `json:"uncorrected_latency_seconds,omitempty"`
	Schedule          *JSONSchedule    `json:"schedule,omitempty"`
	Histogram         []JSONBucket     `json:"histogram"`
	Details           JSONDetails      `json:"details_seconds"`
	Interrupted       bool             `json:"interrupted"`
}

// JSONError is one kind of error and how often it happened.
type JSONError struct {
	Kind    string `json:"kind"`
	Count   int64  `json:"count"`
	Example string `json:"example"`
}

// JSONDist is a latency distribution in seconds.
type JSONDist struct {
	Count int64   `json:"count"`
	P10   float64 `json:"p10"`
	P25   float64 `json:"p25"`
	P50   float64 `json:"p50"`
	P75   float64 `json:"p75"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	P9999 float64 `json:"p9999"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
}

// JSONSchedule describes how well a fixed-rate run kept its schedule.
type JSONSchedule struct {
	TargetRPS            float64  `json:"target_rps"`
	Late                 int64    `json:"late"`
	LateQueued           int64    `json:"late_queued"`
	LateThresholdSeconds float64  `json:"late_threshold_seconds"`
	Lateness             JSONDist `json:"lateness_seconds"`
}

// JSONBucket is one bar of the response time histogram: count latencies
// at most mark seconds and above the previous bar's mark.
type JSONBucket struct {
	Mark  float64 `json:"mark"`
	Count int64   `json:"count"`
}

// JSONPhase is the mean, fastest and slowest of one phase of a request.
type JSONPhase struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

// JSONDetails holds the phases of hey's Details section.
type JSONDetails struct {
	DNSDialup JSONPhase `json:"dns_dialup"`
	DNSLookup JSONPhase `json:"dns_lookup"`
	ReqWrite  JSONPhase `json:"req_write"`
	RespWait  JSONPhase `json:"resp_wait"`
	RespRead  JSONPhase `json:"resp_read"`
}

// JSON returns r as the JSON document.
func (r *Result) JSON() *JSON {
	j := &JSON{
		Requests: r.Requests, Responses: r.Responses,
		DurationSeconds: r.Elapsed.Seconds(), RPS: r.RPS(), ErrorsPerSecond: r.ErrorsPerSecond(),
		Errors: r.ErrorCount, ServerErrors: r.ServerErrors, Unfinished: r.Unfinished, Unsent: r.Unsent,
		ErrorDistribution: []JSONError{}, StatusCodes: map[string]int64{}, BytesTotal: r.Bytes,
		Latency: jsonDist(&r.Latency), Histogram: []JSONBucket{},
		Details: JSONDetails{
			DNSDialup: jsonPhase(r.DNSDialup), DNSLookup: jsonPhase(r.DNS),
			ReqWrite: jsonPhase(r.Write), RespWait: jsonPhase(r.Wait), RespRead: jsonPhase(r.Read),
		},
		Interrupted: r.Interrupted,
	}
	for _, e := range r.Errors {
		j.ErrorDistribution = append(j.ErrorDistribution, JSONError(e))
	}
	for code, n := range r.StatusCodes {
		j.StatusCodes[strconv.Itoa(code)] = n
	}
	for _, b := range r.Latency.Buckets(10) {
		j.Histogram = append(j.Histogram, JSONBucket{Mark: b.Mark.Seconds(), Count: b.Count})
	}
	if r.Rate > 0 {
		u := jsonDist(&r.Uncorrected)
		j.Uncorrected = &u
		j.Schedule = &JSONSchedule{TargetRPS: r.Rate, Late: r.Late, LateQueued: r.LateQueued,
			LateThresholdSeconds: LateThreshold.Seconds(), Lateness: jsonDist(&r.Lateness)}
	}
	return j
}

// WriteJSON writes r as an indented JSON document.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r.JSON())
}

func jsonDist(d *Dist) JSONDist {
	s := func(p float64) float64 { return d.Percentile(p).Seconds() }
	return JSONDist{
		Count: d.Count,
		P10:   s(10), P25: s(25), P50: s(50), P75: s(75), P90: s(90), P95: s(95),
		P99: s(99), P999: s(99.9), P9999: s(99.99),
		Min: d.Min.Seconds(), Max: d.Max.Seconds(), Mean: d.Mean.Seconds(),
	}
}

func jsonPhase(p Phase) JSONPhase {
	return JSONPhase{Mean: p.Mean.Seconds(), Min: p.Min.Seconds(), Max: p.Max.Seconds()}
}
