package httpguard

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// A Policy is the request rules of a perflab server, which Guard applies.
// The zero value answers loopback Host names only, without a token, and
// refuses cross-site requests on every path.
type Policy struct {
	// Token, if not "", must come with every request, as
	// "Authorization: Bearer <Token>" (the scheme in any case) or, with
	// BrowserLogin, in the cookie a ?token= visit sets.
	Token string

	// BrowserLogin lets a browser present the Token once in a URL: a GET
	// of any path with ?token=<Token> is answered with a redirect to the
	// same URL without it and an HttpOnly, SameSite=Strict cookie that
	// holds the token.
	BrowserLogin bool

	// AnyHost turns off the Host check, for a server listening on an
	// address that is not loopback. Leave it false on loopback: then a
	// request whose Host header is not a loopback name gets 403.
	AnyHost bool

	// Basic also takes the token as the password of Basic
	// authentication, with any user name, as Pyroscope's SDKs and
	// Grafana's data source send it (perflab server).
	Basic bool

	// Assets are path prefixes, such as "/ui/assets/", of static files
	// the cross-site check lets through: they hold no data and do no
	// work. The Host check and the token still apply.
	Assets []string

	// Realm names the server in the WWW-Authenticate challenge of a 401;
	// "" means "perflab".
	Realm string
}

// Guard returns h behind p's rules: the Host check (403) unless
// p.AnyHost, the cross-site check (403) but on p.Assets, then the token
// (401) if p.Token is set. A refusal is one line of plain text that never
// repeats what the client sent, and it closes the connection without
// reading the rest of the request, so refused clients cannot hold it.
func Guard(h http.Handler, p Policy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.AnyHost && !LoopbackHost(r) {
			Refuse(w, http.StatusForbidden, "host not allowed: this server answers only to loopback names")
			return
		}
		if !p.asset(r.URL.Path) {
			if err := SameOrigin(r); err != nil {
				Refuse(w, http.StatusForbidden, err.Error())
				return
			}
		}
		if p.Token != "" && !p.authorized(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (p Policy) asset(path string) bool {
	for _, a := range p.Assets {
		if strings.HasPrefix(path, a) {
			return true
		}
	}
	return false
}

// TokenParam is the URL parameter a browser presents the token in once,
// with Policy.BrowserLogin.
const TokenParam = "token"

// authorized checks the token, answering the request itself when it is
// missing or wrong (401) or when it came in the URL (the redirect that
// sets the cookie).
func (p Policy) authorized(w http.ResponseWriter, r *http.Request) bool {
	if p.BrowserLogin && r.URL.Query().Has(TokenParam) && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		if !p.matches(r.URL.Query().Get(TokenParam)) {
			p.challenge(w, "invalid token in the URL")
			return false
		}
		p.login(w, r)
		return false
	}
	got, ok := bearer(r.Header.Get("Authorization"))
	if !ok && p.Basic {
		_, got, ok = r.BasicAuth()
	}
	if !ok && p.BrowserLogin {
		if c, err := r.Cookie(cookieName(r)); err == nil {
			got, ok = c.Value, true
		}
	}
	switch {
	case !ok || got == "":
		p.challenge(w, p.missing())
		return false
	case !p.matches(got):
		p.challenge(w, "invalid bearer token")
		return false
	}
	return true
}

func (p Policy) matches(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(p.Token)) == 1
}

func (p Policy) missing() string {
	switch {
	case p.Basic && p.BrowserLogin:
		return "missing token: send Authorization: Bearer TOKEN, or Basic authentication with the token as the password, or open this address once with ?token=TOKEN in a browser"
	case p.Basic:
		return "missing token: send Authorization: Bearer TOKEN, or Basic authentication with the token as the password"
	case p.BrowserLogin:
		return "missing token: send Authorization: Bearer TOKEN, or open this address once with ?token=TOKEN in a browser"
	}
	return "missing bearer token"
}

// bearer returns the credentials of an Authorization header of the
// Bearer scheme, whose name is matched in any case (RFC 7235).
func bearer(h string) (string, bool) {
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimLeft(cred, " "), true
}

// challenge answers 401 with a Bearer challenge.
func (p Policy) challenge(w http.ResponseWriter, msg string) {
	realm := p.Realm
	if realm == "" {
		realm = "perflab"
	}
	c := fmt.Sprintf("Bearer realm=%q", realm)
	if strings.HasPrefix(msg, "invalid") {
		c += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", c)
	if p.Basic {
		w.Header().Add("WWW-Authenticate", fmt.Sprintf("Basic realm=%q, charset=\"UTF-8\"", realm))
	}
	Refuse(w, http.StatusUnauthorized, msg)
}

// cookieName is the name of the token's cookie for the server r was sent
// to. Browsers keep cookies by host, not by port, so the port is part of
// the name: two servers on one host each keep their own.
func cookieName(r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return "perflab_token_" + port
	}
	return "perflab_token"
}

// login answers a URL that carried the right token: it sets the cookie
// and redirects to the same URL without the token, so that it stays out
// of the history and of Referer headers.
func (p Policy) login(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName(r), Value: p.Token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
	q := r.URL.Query()
	q.Del(TokenParam)
	u := url.URL{Path: "/" + strings.TrimLeft(r.URL.Path, "/"), RawQuery: q.Encode()} // never "//host"
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// Refuse answers a request the server will not serve with status and a
// one-line plain-text message, then closes the connection without
// waiting for the rest of the request, so that refused clients cannot
// hold it.
func Refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.NewResponseController(w).SetReadDeadline(time.Now())
	Error(w, status, msg)
}

// Error answers with status and a one-line plain-text message that
// browsers must not sniff or cache.
func Error(w http.ResponseWriter, status int, msg string) {
	w.Header().Del("Content-Disposition")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintln(w, msg)
}
