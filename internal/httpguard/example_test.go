package httpguard_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/perflab/perflab/internal/httpguard"
)

// A request a web page made the browser send to a loopback server passes
// the Host check but not the same-origin one.
func ExampleSameOrigin() {
	r := httptest.NewRequest("GET", "http://127.0.0.1:6060/debug/pprof/profile?seconds=30", nil)
	r.Header.Set("Sec-Fetch-Site", "cross-site")
	fmt.Println(httpguard.LoopbackHost(r))
	fmt.Println(httpguard.SameOrigin(r))
	// Output:
	// true
	// cross-site request refused (Sec-Fetch-Site: cross-site)
}

// A perflab server with a token answers a program that sends it, and a
// browser once it opened any URL with ?token=, which the server turns into
// a cookie; a page of another site gets nothing, token or not.
func ExampleGuard() {
	data := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "profile") })
	h := httpguard.Guard(data, httpguard.Policy{Token: "s3cret", BrowserLogin: true})

	for _, hdr := range []map[string]string{
		{"Authorization": "bearer s3cret"},
		{},
		{"Authorization": "Bearer s3cret", "Sec-Fetch-Site": "cross-site"},
	} {
		r := httptest.NewRequest("GET", "http://127.0.0.1:8080/ui/top", nil)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code, w.Body.String() == "profile")
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "http://127.0.0.1:8080/ui/top?token=s3cret", nil))
	fmt.Println(w.Code, w.Header().Get("Location"), w.Result().Cookies()[0].Name)
	// Output:
	// 200 true
	// 401 false
	// 403 false
	// 303 /ui/top perflab_token_8080
}
