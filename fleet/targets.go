package fleet

import (
	"encoding/json"
	"net/http"

	"github.com/perflab/perflab/scrape"
)

// StoreHealth is how the store's writes go, as /targets shows it.
type StoreHealth struct {
	// PendingBytes are the bytes taken but not yet in the store's backend.
	PendingBytes int64 `json:"pendingBytes"`
	// Error is why the last write to the backend failed, "" if it did not.
	Error string `json:"error,omitempty"`
}

// storeHealth returns the store's health, or nil if Options.StoreHealth
// does not tell it.
func (s *Server) storeHealth() *StoreHealth {
	if s.opts.StoreHealth == nil {
		return nil
	}
	pending, err := s.opts.StoreHealth()
	h := &StoreHealth{PendingBytes: pending}
	if err != nil {
		h.Error = err.Error()
	}
	return h
}

// storeError returns why the store's writes fail, for the viewer's page.
func (s *Server) storeError() error {
	if s.opts.StoreHealth == nil {
		return nil
	}
	_, err := s.opts.StoreHealth()
	return err
}

// targets answers GET /targets with the health of every scrape target
// and, when it is told, of the store's writes, as JSON:
// {"targets": [scrape.Health...], "store": StoreHealth}.
func (s *Server) targets(w http.ResponseWriter, r *http.Request) {
	body, err := json.MarshalIndent(struct {
		Targets []scrape.Health `json:"targets"`
		Store   *StoreHealth    `json:"store,omitempty"`
	}{s.scraper.Targets(), s.storeHealth()}, "", "  ")
	if err != nil {
		fail(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(append(body, '\n'))
}
