package loadgen

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
	"sync"
	"time"
)

// netTarget holds what net/http clients of one run share.
type netTarget struct {
	t         *target
	transport *http.Transport
	client    *http.Client
	header    http.Header // every request's, read-only: net/http copies a header it changes
}

func newNetTarget(t *target) *netTarget {
	tr := &http.Transport{
		Proxy:               http.ProxyURL(t.cfg.Proxy),
		DialContext:         (&net.Dialer{}).DialContext,
		TLSClientConfig:     &tls.Config{InsecureSkipVerify: true, ServerName: t.serverName()},
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
	h := t.cfg.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if h.Get("User-Agent") == "" {
		h.Set("User-Agent", userAgent)
	}
	return &netTarget{t: t, transport: tr, client: c, header: h}
}

func (nt *netTarget) newClient() *netClient { return &netClient{nt: nt} }

// netClient sends requests through net/http, timing them with httptrace
// the way hey does.
type netClient struct {
	nt *netTarget
}

func (c *netClient) do(ctx context.Context, _, deadline time.Time, s *Sample) (time.Time, error) {
	err := c.send(ctx, deadline, c.nt.t.method, c.nt.t.url.String(), true, s)
	return time.Now(), err
}

func (c *netClient) send(ctx context.Context, deadline time.Time, method, target string, withBody bool, s *Sample) error {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	*s = Sample{}
	tt := &traceTimes{}
	var body io.Reader
	t := c.nt.t
	if withBody && len(t.cfg.Body) > 0 {
		body = bytes.NewReader(t.cfg.Body)
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, tt.trace()), method, target, body)
	if err != nil {
		return err
	}
	req.Header = c.nt.header
	if t.cfg.Host != "" {
		req.Host = t.cfg.Host
	}
	resp, err := c.nt.client.Do(req)
	if err != nil {
		return unwrapURLError(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	tt.phases(s)
	s.Status, s.Bytes = resp.StatusCode, n
	return unwrapURLError(err)
}

// traceTimes collects a request's phases from httptrace's hooks, which
// HTTP/2 calls from its own goroutines.
type traceTimes struct {
	mu                                             sync.Mutex
	connStart, dnsStart, reqStart, waitStart, read time.Time
	p                                              Sample
}

func (tt *traceTimes) at(f func(now time.Time)) {
	now := time.Now()
	tt.mu.Lock()
	f(now)
	tt.mu.Unlock()
}

func (tt *traceTimes) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GetConn:  func(string) { tt.at(func(now time.Time) { tt.connStart = now }) },
		DNSStart: func(httptrace.DNSStartInfo) { tt.at(func(now time.Time) { tt.dnsStart = now }) },
		DNSDone: func(httptrace.DNSDoneInfo) {
			tt.at(func(now time.Time) { tt.p.DNS = now.Sub(tt.dnsStart) })
		},
		GotConn: func(httptrace.GotConnInfo) {
			tt.at(func(now time.Time) { tt.reqStart, tt.p.DNSDialup = now, now.Sub(tt.connStart) })
		},
		WroteRequest: func(httptrace.WroteRequestInfo) {
			tt.at(func(now time.Time) { tt.waitStart, tt.p.Write = now, now.Sub(tt.reqStart) })
		},
		GotFirstResponseByte: func() {
			tt.at(func(now time.Time) { tt.read, tt.p.Wait = now, now.Sub(tt.waitStart) })
		},
	}
}

// phases copies the phases into s, the response having been read.
func (tt *traceTimes) phases(s *Sample) {
	tt.at(func(now time.Time) {
		s.DNSDialup, s.DNS, s.Write, s.Wait = tt.p.DNSDialup, tt.p.DNS, tt.p.Write, tt.p.Wait
		if !tt.read.IsZero() {
			s.Read = now.Sub(tt.read)
		}
	})
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
