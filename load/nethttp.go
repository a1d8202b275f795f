package load

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"time"
)

// netTarget holds what net/http clients of one run share.
type netTarget struct {
	t         *target
	transport *http.Transport
	client    *http.Client
}

func newNetTarget(t *target) *netTarget {
	tr := &http.Transport{
		Proxy:               http.ProxyURL(t.cfg.Proxy),
		DialContext:         (&net.Dialer{}).DialContext,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true, ServerName: hostOnly(cmpOr(t.cfg.Host, t.url.Host))},
		MaxIdleConnsPerHost: t.c,
		DisableCompression:  t.cfg.DisableCompression,
		DisableKeepAlives:   t.cfg.DisableKeepAlive,
	}
	tr.Protocols = new(http.Protocols)
	if t.cfg.HTTP2 {
		// HTTP/2 only: over TLS by ALPN, over plain TCP with prior knowledge.
		tr.Protocols.SetHTTP2(true)
		tr.Protocols.SetUnencryptedHTTP2(true)
	} else {
		tr.Protocols.SetHTTP1(true)
	}
	c := &http.Client{Transport: tr}
	if t.cfg.DisableRedirects {
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	}
	return &netTarget{t: t, transport: tr, client: c}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (nt *netTarget) newClient() *netClient { return &netClient{nt: nt} }

// netClient sends requests through net/http, timing them with httptrace
// the way hey does.
type netClient struct {
	nt *netTarget
}

func (c *netClient) do(ctx context.Context, deadline time.Time, s *Sample) error {
	return c.send(ctx, deadline, c.nt.t.method, c.nt.t.url.String(), true, s)
}

func (c *netClient) send(ctx context.Context, deadline time.Time, method, target string, withBody bool, s *Sample) error {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	var connStart, dnsStart, reqStart, waitStart, readStart time.Time
	*s = Sample{}
	trace := &httptrace.ClientTrace{
		GetConn:  func(string) { connStart = time.Now() },
		DNSStart: func(httptrace.DNSStartInfo) { dnsStart = time.Now() },
		DNSDone:  func(httptrace.DNSDoneInfo) { s.DNS = time.Since(dnsStart) },
		GotConn: func(httptrace.GotConnInfo) {
			reqStart = time.Now()
			s.DNSDialup = reqStart.Sub(connStart)
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			waitStart = time.Now()
			s.Write = waitStart.Sub(reqStart)
		},
		GotFirstResponseByte: func() {
			readStart = time.Now()
			s.Wait = readStart.Sub(waitStart)
		},
	}
	var body io.Reader
	t := c.nt.t
	if withBody && len(t.cfg.Body) > 0 {
		body = bytes.NewReader(t.cfg.Body)
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), method, target, body)
	if err != nil {
		return err
	}
	req.Header = t.cfg.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", userAgent)
	}
	if t.cfg.Host != "" {
		req.Host = t.cfg.Host
	}
	resp, err := c.nt.client.Do(req)
	if err != nil {
		return unwrapURLError(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !readStart.IsZero() {
		s.Read = time.Since(readStart)
	}
	s.Status, s.Bytes = resp.StatusCode, n
	return unwrapURLError(err)
}

// unwrapURLError drops net/http's "Get URL:" wrapping; the kind of the
// error is in what it wraps.
func unwrapURLError(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

func (c *netClient) abort() {} // requests carry the run's context
func (c *netClient) close() {}
