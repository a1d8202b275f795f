package scrape

import (
	"cmp"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"time"
)

// Health is how scraping one target goes, as perflab server shows it in
// its UI and at /targets.
type Health struct {
	Job      string            `json:"job"`
	Instance string            `json:"instance"`
	URL      string            `json:"url"`
	Labels   map[string]string `json:"labels"`
	Kinds    []string          `json:"kinds"`
	// Up is true when the last scrape of every kind succeeded.
	Up bool `json:"up"`
	// LastError is the last failure's message, with the kind it was
	// fetching; LastErrorTime when it came.
	LastError     string    `json:"lastError,omitempty"`
	LastErrorTime time.Time `json:"lastErrorTime,omitzero"`
	// LastSuccess is when a scrape last succeeded, LastDuration how long
	// the last scrape took (for CPU and wall-clock profiles, the interval
	// they cover and the transfer).
	LastSuccess  time.Time     `json:"lastSuccess,omitzero"`
	LastDuration time.Duration `json:"lastDurationNanos"`
	// NextScrape is when the next scrape of one of its kinds starts.
	NextScrape time.Time `json:"nextScrape,omitzero"`
	// Failures counts the failed scrapes since the last success.
	Failures int `json:"failures"`
	// Scraped counts the successful scrapes of each kind (by the series'
	// __name__: process_cpu, memory, ...) since the scraper started; a
	// cumulative kind's first one only sets its baseline.
	Scraped map[string]int64 `json:"scraped"`

	down map[string]bool // the kinds whose last scrape failed
	next map[string]time.Time
}

// Targets returns the health of every target, sorted by job and
// instance.
func (s *Scraper) Targets() []Health {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Health, 0, len(s.health))
	for _, h := range s.health {
		c := *h
		c.Labels = maps.Clone(h.Labels)
		c.Kinds = slices.Clone(h.Kinds)
		c.Scraped = maps.Clone(h.Scraped)
		c.down, c.next = nil, nil
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Health) int {
		return cmp.Or(cmp.Compare(a.Job, b.Job), cmp.Compare(a.Instance, b.Instance), cmp.Compare(a.URL, b.URL))
	})
	return out
}

// ServeHTTP answers GET /targets with the health of every target as
// JSON: {"targets": [Health...]}.
func (s *Scraper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := json.MarshalIndent(struct {
		Targets []Health `json:"targets"`
	}{s.Targets()}, "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(append(body, '\n'))
}

// scheduled records when a kind of a target is scraped next.
func (s *Scraper) scheduled(key, kind string, next time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.health[key]
	if h == nil {
		return
	}
	h.next[kind] = next
	h.NextScrape = time.Time{}
	for _, t := range h.next {
		if h.NextScrape.IsZero() || t.Before(h.NextScrape) {
			h.NextScrape = t
		}
	}
}

// record records how a scrape of a kind of a target went.
func (s *Scraper) record(key, kind string, start time.Time, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.health[key]
	if h == nil {
		return
	}
	now := time.Now()
	h.LastDuration = now.Sub(start)
	if err != nil {
		h.down[kind] = true
		h.Failures++
		h.LastError, h.LastErrorTime = kind+": "+err.Error(), now
	} else {
		delete(h.down, kind)
		h.Failures = 0
		h.LastSuccess = now
		h.Scraped[kind]++
	}
	h.Up = len(h.down) == 0 && !h.LastSuccess.IsZero()
}
