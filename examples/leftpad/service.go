package leftpad

import (
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"
)

// Options configure a Service.
type Options struct {
	Version    Version   // V1 (naive) or V2 (tuned); 0 means V2
	StatsD     io.Writer // receives one StatsD packet per Write; nil drops metrics
	Namespace  string    // StatsD namespace; "" means "leftpad"
	SampleRate float64   // StatsD sample rate to report, if in (0, 1)
	Log        io.Writer // request log; nil discards it
}

// A Service is the left-pad HTTP service. Its handler serves
// GET /v1/leftpad/?str=S&len=N&chr=C.
type Service struct {
	version Version
	statsd  *StatsD
	mux     *http.ServeMux
	logV1   *log.Logger  // V1: unbuffered, two lines per request
	logV2   *bufferedLog // V2: buffered, one line per request
}

// New returns the service, with its periodic log flushing running when
// the version is V2; Close stops it.
func New(opts Options) *Service {
	if opts.Version == 0 {
		opts.Version = V2
	}
	if opts.StatsD == nil {
		opts.StatsD = io.Discard
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Namespace == "" {
		opts.Namespace = "leftpad"
	}
	s := &Service{
		version: opts.Version,
		statsd:  NewStatsD(opts.StatsD, opts.Namespace, opts.SampleRate, opts.Version),
		mux:     http.NewServeMux(),
	}
	if s.version == V1 {
		s.logV1 = log.New(opts.Log, "", log.LstdFlags)
		s.mux.HandleFunc("/v1/leftpad/", s.timedHandlerV1("leftpad", leftpadHandlerV1))
	} else {
		s.logV2 = newBufferedLog(opts.Log, time.Second)
		s.mux.Handle("/v1/leftpad/", &timedHandlerV2{s: s})
	}
	return s
}

// ServeHTTP serves the service's routes.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close flushes the request log and stops flushing it periodically.
func (s *Service) Close() error {
	if s.logV2 != nil {
		return s.logV2.Close()
	}
	return nil
}

// clientIP returns the host part of the request's remote address.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// allowed answers 405 to anything but GET and HEAD.
func allowed(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	return false
}

// sendMetrics counts a request taking elapsed and times it:
// namespace.requests and namespace.duration, in milliseconds. Both
// versions send the same packets; their StatsD clients differ.
func (s *Service) sendMetrics(elapsed time.Duration) {
	s.statsd.Send("requests", "c", 1)
	s.statsd.Send("duration", "ms", float64(elapsed)/float64(time.Millisecond))
}

// timedHandlerV1 wraps a handler as the article's first version does: a
// log line before, the metrics (namespace.requests, namespace.duration)
// and another log line after.
func (s *Service) timedHandlerV1(name string, handler func(http.ResponseWriter, *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		s.logV1.Printf("url=%s ip=%s user_agent=%q", r.URL, clientIP(r), r.UserAgent())
		handler(w, r)
		elapsed := time.Since(start)
		s.sendMetrics(elapsed)
		s.logV1.Printf("%s request took %v", name, elapsed)
	}
}

// response is the service's answer.
type response struct {
	Str string `json:"str"`
}

// leftpadHandlerV1 parses the query into a map with FormValue and
// answers through a json.Encoder.
func leftpadHandlerV1(w http.ResponseWriter, r *http.Request) {
	if !allowed(w, r) {
		return
	}
	p, err := parseParams(r.FormValue)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(response{Str: leftpadV1(p.str, p.length, p.chr)})
}

// timedHandlerV2 is the tuned handler: the query scanned in place, the
// reply and the log line appended into pooled buffers, metrics sent by
// the tuned StatsD client.
type timedHandlerV2 struct {
	s *Service
}

// replyBuffers are the buffers one V2 reply is built in.
type replyBuffers struct {
	padded, body []byte
}

var (
	replies         = sync.Pool{New: func() any { return &replyBuffers{make([]byte, 0, 128), make([]byte, 0, 256)} }}
	jsonContentType = []string{"application/json"}
)

// ServeHTTP answers one request, then counts, times and logs it.
func (h *timedHandlerV2) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	h.leftpad(w, r)
	elapsed := time.Since(start)
	h.s.sendMetrics(elapsed)
	h.s.logV2.Request(start, r)
}

func (h *timedHandlerV2) leftpad(w http.ResponseWriter, r *http.Request) {
	if !allowed(w, r) {
		return
	}
	q := r.URL.RawQuery
	p, err := parseParams(func(key string) string { return queryValue(q, key) })
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	b := replies.Get().(*replyBuffers)
	b.padded = leftpadV2(b.padded[:0], p.str, p.length, p.chr)
	b.body = append(b.body[:0], `{"str":`...)
	b.body = appendJSONString(b.body, b.padded)
	b.body = append(b.body, "}\n"...)
	w.Header()["Content-Type"] = jsonContentType
	w.Write(b.body)
	replies.Put(b)
}
