package httpguard_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/httpguard"
)

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost":         true,
		"LOCALHOST:6060":    true,
		"127.0.0.1":         true,
		"127.1.2.3:80":      true,
		"[::1]:6060":        true,
		"[::1]":             true,
		"attacker.example":  false,
		"localhost.example": false,
		"10.0.0.1:6060":     false,
		"":                  false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		if got := httpguard.LoopbackHost(r); got != want {
			t.Errorf("LoopbackHost(Host %q) = %v, want %v", host, got, want)
		}
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		site, origin string
		ok           bool
	}{
		{"", "", true}, // curl, go tool pprof
		{"none", "", true},
		{"same-origin", "http://127.0.0.1:6060", true},
		{"same-site", "", false},
		{"cross-site", "", false},
		{"cross-site", "http://127.0.0.1:6060", false}, // Sec-Fetch-Site is believed
		{"something-new", "", false},
		{"", "http://127.0.0.1:6060", true},
		{"", "HTTP://127.0.0.1:6060", true},
		{"", "http://evil.example", false},
		{"", "http://localhost:6060", false}, // another origin, though loopback
		{"", "https://127.0.0.1:6060", false},
		{"", "null", false},
	} {
		r := httptest.NewRequest("GET", "/debug/pprof/profile", nil)
		r.Host = "127.0.0.1:6060"
		if tc.site != "" {
			r.Header.Set("Sec-Fetch-Site", tc.site)
		}
		if tc.origin != "" {
			r.Header.Set("Origin", tc.origin)
		}
		err := httpguard.SameOrigin(r)
		if (err == nil) != tc.ok {
			t.Errorf("Sec-Fetch-Site %q, Origin %q: %v, want ok=%v", tc.site, tc.origin, err, tc.ok)
		}
		if err != nil && !errors.Is(err, httpguard.ErrCrossSite) {
			t.Errorf("error %v does not wrap ErrCrossSite", err)
		}
	}
}

// FuzzSameOrigin checks that no header values make the checks panic, that
// a refusal wraps ErrCrossSite without repeating the headers, and that a
// request without browser headers always passes.
func FuzzSameOrigin(f *testing.F) {
	f.Add("127.0.0.1:6060", "cross-site", "http://evil.example")
	f.Add("[::1]:1", "", "http://[::1]:1")
	f.Add("localhost", "none", "")
	f.Fuzz(func(t *testing.T, host, site, origin string) {
		r := &http.Request{Host: host, Header: http.Header{}}
		httpguard.LoopbackHost(r)
		if err := httpguard.SameOrigin(r); err != nil {
			t.Fatalf("request without Origin or Sec-Fetch-Site refused: %v", err)
		}
		r.Header.Set("Sec-Fetch-Site", site)
		r.Header.Set("Origin", origin)
		err := httpguard.SameOrigin(r)
		if err == nil {
			return
		}
		if !errors.Is(err, httpguard.ErrCrossSite) {
			t.Fatalf("error %v does not wrap ErrCrossSite", err)
		}
		if len(origin) > 12 && strings.Contains(err.Error(), origin) {
			t.Fatalf("error %q repeats the Origin header", err)
		}
	})
}
