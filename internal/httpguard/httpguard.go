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

// LoopbackAddr reports whether Listen would bind addr ("127.0.0.1:8080",
// "localhost:0", ":8080", "[::1]:0") to loopback only; an empty host
// means 127.0.0.1.
func LoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return host == "" || IsLoopback(strings.Trim(host, "[]"))
}

// LoopbackHost reports whether r's Host header is a loopback name, with
// or without a port. A loopback server that refuses other Host headers
// cannot be reached by a web page that points its own domain at
// 127.0.0.1 (DNS rebinding). It says nothing of where the client is:
// the client chooses the header; see LoopbackPeer.
func LoopbackHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return IsLoopback(strings.Trim(host, "[]"))
}

// LoopbackPeer reports whether r came from this machine: whether the
// peer address of its connection (r.RemoteAddr) is a loopback address.
// A request whose RemoteAddr is not an address does not.
func LoopbackPeer(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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
