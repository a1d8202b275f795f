package loadgen

import (
	"errors"
	"strings"
	"testing"
)

func TestParseHeader(t *testing.T) {
	good := map[string][2]string{
		"Accept: text/html":        {"Accept", "text/html"},
		"x-token:abc":              {"X-Token", "abc"},
		"Content-Type:  a/b; c=d ": {"Content-Type", "a/b; c=d"},
		"X-Empty-Ok: a:b:c":        {"X-Empty-Ok", "a:b:c"},
	}
	for in, want := range good {
		name, value, err := ParseHeader(in)
		if err != nil || name != want[0] || value != want[1] {
			t.Errorf("ParseHeader(%q) = %q, %q, %v; want %q, %q", in, name, value, err, want[0], want[1])
		}
	}
	for _, in := range []string{"", "NoColon", ": value", "Bad Name: v", "X:", "X:   ", "X: a\r\nY: b", "Ü: v"} {
		if _, _, err := ParseHeader(in); err == nil {
			t.Errorf("ParseHeader(%q) succeeded; want an error", in)
		}
	}
}

// FuzzParseHeader checks that an accepted header is safe to send as-is
// (no line breaks, a token name) and parses back to itself.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"Accept: text/html", "x:y", "Bad Name: v", "X: a\r\nY: b", "X-A:  b c  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, value, err := ParseHeader(s)
		if err != nil {
			return
		}
		if !isToken(name) || value == "" || strings.ContainsAny(value, "\r\n\x00") || strings.Trim(value, " \t") != value {
			t.Fatalf("ParseHeader(%q) accepted name %q, value %q", s, name, value)
		}
		n2, v2, err := ParseHeader(name + ": " + value)
		if err != nil || n2 != name || v2 != value {
			t.Fatalf("round trip of %q: %q, %q, %v", s, n2, v2, err)
		}
	})
}

func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:8080/x?y=1", "https://h/", "ftp://x", "http://[::1]:80/", "http://x:y/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := ParseURL(s)
		if err != nil {
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Hostname() == "" {
			t.Fatalf("ParseURL(%q) accepted %v", s, u)
		}
	})
}

// TestServerName checks that both clients send the same TLS server name:
// the Host override's host if set, else the URL's.
func TestServerName(t *testing.T) {
	for _, tt := range []struct{ url, host, want string }{
		{"https://127.0.0.1:8443/", "", "127.0.0.1"},
		{"https://[::1]:8443/", "", "::1"},
		{"https://127.0.0.1:8443/", "example.test:443", "example.test"},
		{"https://127.0.0.1:8443/", "example.test", "example.test"},
	} {
		tg, err := Config{URL: tt.url, Host: tt.host}.resolve()
		if err != nil {
			t.Fatal(err)
		}
		lean, nt := tg.http1Target().TLS.ServerName, newNetTarget(tg).transport.TLSClientConfig.ServerName
		if lean != tt.want || nt != tt.want {
			t.Errorf("URL %s, Host %q: server name %q (lean), %q (net/http); want %q", tt.url, tt.host, lean, nt, tt.want)
		}
	}
}

// TestParseHeaderErrorKeepsTheReason: the reason is a field, so that a
// caller can report it without the value, which may be a secret.
func TestParseHeaderErrorKeepsTheReason(t *testing.T) {
	_, _, err := ParseHeader("X-Token: s3cret\x01")
	var he *HeaderError
	if !errors.As(err, &he) || he.Reason != "control character in value" || strings.Contains(he.Reason, "s3cret") {
		t.Errorf("ParseHeader: %v; want a *HeaderError with the reason alone", err)
	}
}
