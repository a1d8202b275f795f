package collect

import (
	"bytes"
	"encoding/json"
	"expvar"
	"math"
	"net/http"
	"runtime/metrics"
)

// serveVars writes expvar's variables as JSON, as expvar's own handler
// does, leaving out "cmdline" unless the options allow it.
func (h *handler) serveVars(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	buf.WriteString("{\n")
	first := true
	expvar.Do(func(kv expvar.KeyValue) {
		if kv.Key == "cmdline" && !h.opts.Cmdline {
			return
		}
		if !first {
			buf.WriteString(",\n")
		}
		first = false
		key, _ := json.Marshal(kv.Key)
		buf.Write(key)
		buf.WriteString(": ")
		buf.WriteString(kv.Value.String())
	})
	buf.WriteString("\n}\n")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(buf.Bytes())
}

// metricValue is one runtime/metrics sample in JSON.
type metricValue struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Kind        string   `json:"kind"`
	Cumulative  bool     `json:"cumulative,omitempty"`
	Value       any      `json:"value"`
	Buckets     []bucket `json:"buckets,omitempty"`
}

// bucket is one non-empty bucket of a histogram metric; a bound of null
// is infinite.
type bucket struct {
	Lo    *float64 `json:"lo"`
	Hi    *float64 `json:"hi"`
	Count uint64   `json:"count"`
}

// serveMetrics writes every runtime/metrics metric as a JSON object
// {"metrics": [...]}; a histogram's value is its total count and its
// non-empty buckets follow.
func serveMetrics(w http.ResponseWriter, r *http.Request) {
	descs := metrics.All()
	samples := make([]metrics.Sample, len(descs))
	for i, d := range descs {
		samples[i].Name = d.Name
	}
	metrics.Read(samples)
	out := make([]metricValue, 0, len(samples))
	for i, s := range samples {
		mv := metricValue{Name: s.Name, Description: descs[i].Description, Cumulative: descs[i].Cumulative}
		switch s.Value.Kind() {
		case metrics.KindUint64:
			mv.Kind, mv.Value = "uint64", s.Value.Uint64()
		case metrics.KindFloat64:
			mv.Kind, mv.Value = "float64", bound(s.Value.Float64())
		case metrics.KindFloat64Histogram:
			mv.Kind = "histogram"
			mv.Value, mv.Buckets = histogram(s.Value.Float64Histogram())
		default:
			continue // a kind this version does not know
		}
		out = append(out, mv)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(map[string]any{"metrics": out}); err != nil {
		httpError(w, http.StatusInternalServerError, "metrics: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Write(buf.Bytes())
}

func histogram(h *metrics.Float64Histogram) (uint64, []bucket) {
	var total uint64
	var bs []bucket
	for i, n := range h.Counts {
		if n == 0 {
			continue
		}
		total += n
		bs = append(bs, bucket{Lo: bound(h.Buckets[i]), Hi: bound(h.Buckets[i+1]), Count: n})
	}
	return total, bs
}

// bound returns f, or nil (JSON null) if f is infinite or NaN, which JSON
// cannot hold.
func bound(f float64) *float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil
	}
	return &f
}
