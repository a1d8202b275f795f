package fleet

import (
	"net/http"

	"github.com/perflab/perflab/internal/httpguard"
	"github.com/perflab/perflab/viewer"
)

// guard returns h behind the rules every perflab server applies
// (internal/httpguard): 403 for a Host header that is not a loopback name
// (DNS rebinding) unless anyHost, 403 for a request a browser sends on
// behalf of another site, and 401 without the token when there is one.
// The token is taken from "Authorization: Bearer TOKEN" (the scheme in
// any case), from Basic authentication with the token as the password
// and any user name, which Grafana's Pyroscope data source and
// Pyroscope's SDKs send (BasicAuthUser and BasicAuthPassword), or from
// the cookie a browser gets by opening the server once with ?token=.
// The viewer's static files pass the cross-site check (they hold no
// data), never the Host check or the token.
func guard(h http.Handler, token string, anyHost bool) http.Handler {
	return httpguard.Guard(h, httpguard.Policy{Token: token, Basic: true, BrowserLogin: true, AnyHost: anyHost, Realm: "perflab server",
		Assets: viewer.AssetPaths()})
}
