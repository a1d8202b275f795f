package web

import (
	"net/http"

	"github.com/perflab/perflab/internal/httpguard"
)

// assetPaths are where the servers of this package serve their static
// files (styles, scripts), which the cross-site check lets through: they
// hold nothing of the profile and cost nothing to serve.
var assetPaths = []string{"/ui/assets/", "/ui/flame/", "/ui/timeline/assets/"}

// AssetPaths returns the path prefixes of the static files a Server
// serves (see Assets), for the cross-site check of a server that serves
// them itself (httpguard.Policy.Assets).
func AssetPaths() []string { return append([]string(nil), assetPaths...) }

// protect puts h behind the checks every perflab server makes
// (internal/httpguard): the Host check unless anyHost, the refusal of
// cross-site requests on every path but the assets, and the token if
// token is not "", which a browser may present once as ?token= (it then
// keeps it in an HttpOnly, SameSite=Strict cookie).
func protect(h http.Handler, anyHost bool, token string) http.Handler {
	return httpguard.Guard(h, httpguard.Policy{Token: token, BrowserLogin: true, AnyHost: anyHost, Assets: assetPaths})
}

// getOnly serves h for GET and HEAD only, with the headers against
// sniffing and framing.
func getOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}
