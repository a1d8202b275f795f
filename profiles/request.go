package profiles

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Requests to URL sources and symbol servers carry Options.Token and
// Options.Header. Neither may leak: they are dropped on a redirect to
// another host or from https to http, and every error returned for a URL
// source has them replaced by "<redacted>".

// newRequest prepares a request to u with opts' headers, and the client to
// send it with. A "https+insecure" URL is fetched over https without
// checking the certificate, as go tool pprof does.
func newRequest(ctx context.Context, method, u string, body io.Reader, opts Options) (*http.Client, *http.Request, error) {
	client := &http.Client{CheckRedirect: opts.checkRedirect}
	if pu, err := url.Parse(u); err == nil && pu.Scheme == "https+insecure" {
		pu.Scheme = "https"
		u = pu.String()
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, nil, err
	}
	for k, vs := range opts.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if h := opts.Header.Get("Host"); h != "" {
		req.Host = h // net/http sends req.Host, not a Host header
	}
	if opts.Token != "" && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+opts.Token)
	}
	return client, req, nil
}

// checkRedirect follows at most 10 redirects, as net/http does, and strips
// the token and opts' headers from a redirect to another host or from
// https to http. (net/http itself keeps custom headers, and keeps
// Authorization on a downgrade to http.)
func (o Options) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	first := via[0].URL
	if req.URL.Host != first.Host || (first.Scheme == "https" && req.URL.Scheme != "https") {
		for k := range o.Header {
			req.Header.Del(k)
		}
		req.Header.Del("Authorization")
	}
	return nil
}

// redactURL returns u with any password replaced by "xxxxx".
func redactURL(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return u
	}
	return pu.Redacted()
}

// minSecret is the shortest header value taken for a secret: shorter ones
// would blank out ordinary words in messages.
const minSecret = 4

// secrets lists what must not appear in a message: the token, and the
// values of headers that carry credentials.
func (o Options) secrets() []string {
	var s []string
	add := func(v string) {
		if len(v) >= minSecret {
			s = append(s, v)
		}
	}
	add(o.Token)
	for k, vs := range o.Header {
		if !isCredential(k) {
			continue
		}
		for _, v := range vs {
			add(v)
			if _, cred, ok := strings.Cut(v, " "); ok { // "Bearer TOKEN"
				add(strings.TrimSpace(cred))
			}
		}
	}
	return s
}

// isCredential reports whether a header's name says it carries a secret.
func isCredential(name string) bool {
	name = strings.ToLower(name)
	for _, w := range []string{"auth", "token", "key", "secret", "cookie", "session", "password"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// redact returns err with every secret of o's replaced by "<redacted>".
// errors.Is still sees the causes.
func (o Options) redact(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	changed := false
	for _, s := range o.secrets() {
		if strings.Contains(msg, s) {
			msg = strings.ReplaceAll(msg, s, "<redacted>")
			changed = true
		}
	}
	if !changed {
		return err
	}
	return &redactedError{msg, err}
}

// A redactedError answers errors.Is for its cause but does not unwrap to
// it, whose message holds the secret.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string        { return e.msg }
func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }
