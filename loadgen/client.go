package loadgen

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/perflab/perflab/loadgen/internal/http1"
)

// userAgent is sent unless the Config's Header sets one.
const userAgent = "perflab-load"

// clientFactory picks the lean HTTP/1.1 client unless the run needs
// something only net/http has: HTTP/2 or a proxy.
func (t *target) clientFactory() func() client {
	nt := newNetTarget(t)
	if t.cfg.HTTP2 || t.cfg.Proxy != nil || t.cfg.netHTTP {
		return func() client { return nt.newClient() }
	}
	lt := t.http1Target()
	return func() client { return &leanClient{t: t, conn: http1.NewConn(lt), fallback: nt} }
}

// http1Target serializes the request once for the lean client.
func (t *target) http1Target() *http1.Target {
	u := t.url
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	lt := &http1.Target{Host: u.Hostname(), Port: port, Head: t.method == "HEAD", Close: t.cfg.DisableKeepAlive}
	switch t.method {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		lt.Replayable = true
	}
	if u.Scheme == "https" {
		lt.TLS = &tls.Config{InsecureSkipVerify: true, ServerName: t.serverName(), NextProtos: []string{"http/1.1"}}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", t.method, u.RequestURI(), cmp.Or(t.cfg.Host, u.Host))
	h := t.http1Header()
	for _, k := range slices.Sorted(maps.Keys(h)) {
		for _, v := range h[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n")
	b.Write(t.cfg.Body)
	lt.Request = b.Bytes()
	return lt
}

// http1Header returns the headers the lean client sends besides Host,
// with the defaults net/http would add.
func (t *target) http1Header() http.Header {
	h := t.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Del("Host")
	if u := t.url.User; u != nil && h.Get("Authorization") == "" {
		pw, _ := u.Password()
		r := http.Request{Header: h}
		r.SetBasicAuth(u.Username(), pw)
	}
	if h.Get("User-Agent") == "" {
		h.Set("User-Agent", userAgent)
	}
	if !t.cfg.DisableCompression && h.Get("Accept-Encoding") == "" && t.method != "HEAD" {
		h.Set("Accept-Encoding", "gzip")
	}
	h.Del("Content-Length")
	if len(t.cfg.Body) > 0 || t.method == "POST" || t.method == "PUT" || t.method == "PATCH" {
		h.Set("Content-Length", strconv.Itoa(len(t.cfg.Body)))
	}
	if t.cfg.DisableKeepAlive {
		h.Set("Connection", "close")
	}
	return h
}

// serverName is the TLS server name: the host of the Host override if
// set, else the URL's.
func (t *target) serverName() string {
	if t.cfg.Host != "" {
		return hostOnly(t.cfg.Host)
	}
	return t.url.Hostname()
}

func hostOnly(hostport string) string {
	if u, err := url.Parse("http://" + hostport); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return hostport
}

// leanClient sends requests with the lean HTTP/1.1 client, and follows
// redirects (unless disabled) through net/http.
type leanClient struct {
	t        *target
	conn     *http1.Conn
	res      http1.Result
	tm       http1.Timing
	fallback *netTarget
	redirect *netClient // made on the first redirect
}

func (c *leanClient) do(ctx context.Context, start, deadline time.Time, s *Sample) (time.Time, error) {
	err := c.conn.Do(ctx, start, deadline, &c.res, &c.tm)
	s.DNSDialup, s.DNS, s.Write, s.Wait, s.Read = c.tm.Conn, c.tm.DNS, c.tm.Write, c.tm.Wait, c.tm.Read
	if err != nil {
		return c.tm.End, err
	}
	s.Status, s.Bytes = c.res.Head.Status, c.res.Bytes
	if isRedirect(s.Status) && len(c.res.Head.Location) > 0 && !c.t.cfg.DisableRedirects {
		err := c.follow(ctx, deadline, s)
		return time.Now(), err
	}
	return c.tm.End, nil
}

// follow sends the request a redirect points to through net/http, which
// follows any further redirects, and counts its time in resp read.
func (c *leanClient) follow(ctx context.Context, deadline time.Time, s *Sample) error {
	loc, err := c.t.url.Parse(string(c.res.Head.Location))
	if err != nil {
		return fmt.Errorf("redirect to %q: %w", c.res.Head.Location, err)
	}
	if c.redirect == nil {
		c.redirect = c.fallback.newClient()
	}
	method := c.t.method
	if s.Status != 307 && s.Status != 308 && method != "HEAD" {
		method = "GET"
	}
	start := time.Now()
	var next Sample
	err = c.redirect.send(ctx, deadline, method, loc.String(), method == c.t.method, &next)
	s.Read += time.Since(start)
	s.Status, s.Bytes = next.Status, next.Bytes
	return err
}

func isRedirect(code int) bool {
	switch code {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

func (c *leanClient) abort() { c.conn.Abort() }

func (c *leanClient) close() {
	c.conn.Close()
	if c.redirect != nil {
		c.redirect.close()
	}
}
