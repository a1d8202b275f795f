// Package httpguard holds the checks perflab's local HTTP servers (the
// collect debug server, the web UI) make before serving a request: that a
// loopback server is addressed by a loopback name, which defeats DNS
// rebinding, and that a browser did not send the request on behalf of
// another site, which defeats cross-site request forgery against servers
// without a token.
package httpguard

import (
	"errors"
	"net"
	"net/http"
	"strings"
)

// IsLoopback reports whether host, a name or an IP address without port
// or brackets, names only this machine: localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackHost reports whether r's Host header is a loopback name, with
// or without a port. A loopback server that refuses other Host headers
// cannot be reached by a web page that points its own domain at
// 127.0.0.1 (DNS rebinding).
func LoopbackHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return IsLoopback(strings.Trim(host, "[]"))
}

// ErrCrossSite is the error SameOrigin returns for a request a browser
// sent on behalf of another site.
var ErrCrossSite = errors.New("cross-site request refused")

// SameOrigin returns nil unless r is a request a browser made on behalf of
// a page of another origin, for which it returns an error wrapping
// ErrCrossSite. A browser that sends Sec-Fetch-Site is believed: "none"
// (typed in the address bar, a bookmark) and "same-origin" pass;
// "same-site" (another port or subdomain), "cross-site" and anything else
// are refused. Without it, an Origin header, if present, must be the
// server's own origin (scheme and Host). Requests from programs such as
// curl or go tool pprof send neither header and pass.
func SameOrigin(r *http.Request) error {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		switch site {
		case "none", "same-origin":
			return nil
		case "same-site", "cross-site":
			return &crossSiteError{"Sec-Fetch-Site: " + site}
		}
		return &crossSiteError{"unknown Sec-Fetch-Site"}
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	if r.Host != "" && strings.EqualFold(origin, scheme+r.Host) {
		return nil
	}
	return &crossSiteError{"Origin is not this server's"}
}

type crossSiteError struct{ why string }

func (e *crossSiteError) Error() string { return ErrCrossSite.Error() + " (" + e.why + ")" }
func (e *crossSiteError) Unwrap() error { return ErrCrossSite }
