package loadgen

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// barChar draws the bars of the response time histogram, as hey does.
const barChar = "■"

// secs formats a latency in seconds at microsecond resolution, so that
// fast responses do not print as 0.0000 as they do in hey.
func secs(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }

// WriteText writes r in hey's summary layout: Summary, Response time
// histogram, Latency distribution, Details, Status code distribution and
// Error distribution, with latencies at microsecond resolution.
// Requests/sec counts responses only; the Summary adds Errors/sec, and
// the unfinished and unsent requests, when there are any. In rate mode it
// adds the uncorrected latency distribution and the schedule's lateness.
func (r *Result) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "\nSummary:\n")
	fmt.Fprintf(b, "  Total:\t%.4f secs\n", r.Elapsed.Seconds())
	fmt.Fprintf(b, "  Slowest:\t%s secs\n", secs(r.Latency.Max))
	fmt.Fprintf(b, "  Fastest:\t%s secs\n", secs(r.Latency.Min))
	fmt.Fprintf(b, "  Average:\t%s secs\n", secs(r.Latency.Mean))
	fmt.Fprintf(b, "  Requests/sec:\t%.4f\n", r.RPS())
	writeFailures(b, r)
	fmt.Fprintf(b, "  \n")
	if r.Bytes > 0 {
		fmt.Fprintf(b, "  Total data:\t%d bytes\n", r.Bytes)
		fmt.Fprintf(b, "  Size/request:\t%d bytes\n", r.Bytes/max(r.Responses, 1))
	}
	fmt.Fprintf(b, "\nResponse time histogram:\n")
	writeHistogram(b, r.Latency.Buckets(10))
	fmt.Fprintf(b, "\n\nLatency distribution:\n")
	writePercentiles(b, &r.Latency)
	if r.Rate > 0 {
		fmt.Fprintf(b, "\nUncorrected latency distribution (from actual send times):\n")
		writePercentiles(b, &r.Uncorrected)
		fmt.Fprintf(b, "\nSchedule (requests that waited for a busy worker count from their intended send time):\n")
		fmt.Fprintf(b, "  Target rate:\t%.4f req/s\n", r.Rate)
		fmt.Fprintf(b, "  Late sends:\t%d of %d responses went out more than %v late, %d of them waiting for a busy worker\n",
			r.Late, r.Responses, LateThreshold, r.LateQueued)
		fmt.Fprintf(b, "  Lateness:\t%s secs mean, %s secs p99, %s secs max\n",
			secs(r.Lateness.Mean), secs(r.Lateness.Percentile(99)), secs(r.Lateness.Max))
	}
	fmt.Fprintf(b, "\nDetails (average, fastest, slowest):\n")
	for _, p := range []struct {
		name string
		ph   Phase
	}{{"DNS+dialup", r.DNSDialup}, {"DNS-lookup", r.DNS}, {"req write", r.Write}, {"resp wait", r.Wait}, {"resp read", r.Read}} {
		fmt.Fprintf(b, "  %s:\t%s secs, %s secs, %s secs\n", p.name, secs(p.ph.Mean), secs(p.ph.Min), secs(p.ph.Max))
	}
	fmt.Fprintf(b, "\nStatus code distribution:\n")
	for _, code := range slices.Sorted(maps.Keys(r.StatusCodes)) {
		fmt.Fprintf(b, "  [%d]\t%d responses\n", code, r.StatusCodes[code])
	}
	fmt.Fprintf(b, "\n")
	if len(r.Errors) == 0 {
		fmt.Fprintf(b, "\n")
	} else {
		fmt.Fprintf(b, "Error distribution:\n")
		for _, e := range r.Errors {
			fmt.Fprintf(b, "  [%d]\t%s (e.g. %s)\n", e.Count, e.Kind, e.Example)
		}
	}
	fmt.Fprintf(b, "\n")
	return b.Flush()
}

// writeFailures adds to the Summary, after Requests/sec (which counts
// responses only), the lines hey does not have: failed requests per
// second, and the requests left in flight or never sent. Each appears
// only when its count is not zero, so that a clean run's report has
// hey's layout.
func writeFailures(w io.Writer, r *Result) {
	if r.ErrorCount > 0 {
		fmt.Fprintf(w, "  Errors/sec:\t%.4f\n", r.ErrorsPerSecond())
	}
	if r.Unfinished > 0 {
		fmt.Fprintf(w, "  Unfinished:\t%d requests still in flight at the end, abandoned\n", r.Unfinished)
	}
	if r.Unsent > 0 {
		fmt.Fprintf(w, "  Unsent:\t%d requests due by the schedule never went out: every worker was busy\n", r.Unsent)
	}
}

func writeHistogram(w io.Writer, buckets []Bucket) {
	var most int64
	for _, bk := range buckets {
		most = max(most, bk.Count)
	}
	for _, bk := range buckets {
		bar := 0
		if most > 0 {
			bar = int((bk.Count*40 + most/2) / most)
		}
		fmt.Fprintf(w, "  %s [%d]\t|%s\n", secs(bk.Mark), bk.Count, strings.Repeat(barChar, bar))
	}
}

func writePercentiles(w io.Writer, d *Dist) {
	for _, p := range d.Percentiles {
		fmt.Fprintf(w, "  %s%% in %s secs\n", strconv.FormatFloat(p.P, 'f', -1, 64), secs(p.Value))
	}
}

// CSVHeader is the first line of hey's CSV output, naming the columns
// AppendCSVRow writes.
const CSVHeader = "response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n"

// AppendCSVRow appends s as a row of hey's CSV output, in seconds at
// microsecond resolution.
func AppendCSVRow(dst []byte, s *Sample) []byte {
	for _, d := range []time.Duration{s.Latency, s.DNSDialup, s.DNS, s.Write, s.Wait, s.Read} {
		dst = strconv.AppendFloat(dst, d.Seconds(), 'f', 6, 64)
		dst = append(dst, ',')
	}
	dst = strconv.AppendInt(dst, int64(s.Status), 10)
	dst = append(dst, ',')
	dst = strconv.AppendFloat(dst, s.Offset.Seconds(), 'f', 6, 64)
	return append(dst, '\n')
}
