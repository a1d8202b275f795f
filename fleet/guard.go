package fleet

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/perflab/perflab/internal/httpguard"
)

// policy is the request rules of a Server, applied by guard to every
// route: the Host check (unless the server listens on an address that
// is not loopback), the cross-site check, and the token.
type policy struct {
	token   string
	anyHost bool
}

// guard returns h behind p's rules: 403 for a Host header that is not a
// loopback name (DNS rebinding) unless p.anyHost, 403 for a request a
// browser sends on behalf of another site, and 401 without the token when
// p has one. The token is taken from "Authorization: Bearer TOKEN" (the
// scheme in any case) or from Basic authentication with the token as the
// password and any user name, which Grafana's Pyroscope data source and
// Pyroscope's SDKs send (BasicAuthUser and BasicAuthPassword).
func guard(h http.Handler, p policy) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !p.anyHost && !httpguard.LoopbackHost(r) {
			refuse(w, http.StatusForbidden, "host not allowed: this server answers only to loopback names")
			return
		}
		if err := httpguard.SameOrigin(r); err != nil {
			refuse(w, http.StatusForbidden, err.Error())
			return
		}
		if p.token != "" && !p.authorized(r) {
			w.Header().Add("WWW-Authenticate", `Bearer realm="perflab server"`)
			w.Header().Add("WWW-Authenticate", `Basic realm="perflab server", charset="UTF-8"`)
			refuse(w, http.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer TOKEN, or Basic authentication with the token as the password")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries p's token.
func (p policy) authorized(r *http.Request) bool {
	got, ok := "", false
	if scheme, cred, found := strings.Cut(r.Header.Get("Authorization"), " "); found && strings.EqualFold(scheme, "Bearer") {
		got, ok = strings.TrimLeft(cred, " "), true
	} else if _, password, basic := r.BasicAuth(); basic {
		got, ok = password, true
	}
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(p.token)) == 1
}

// refuse answers a request the server will not serve with status and a
// one-line message, and closes the connection.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.Error(w, msg, status)
}
