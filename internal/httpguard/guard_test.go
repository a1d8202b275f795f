package httpguard_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/httpguard"
)

// answer serves one request through Guard(p) and returns the status and
// body.
func answer(p httpguard.Policy, r *http.Request) (int, string, http.Header) {
	h := httpguard.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "data")
	}), p)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.String(), w.Header()
}

// TestGuardRules sends the requests of browsers, pages of other sites,
// remote Host names and non-browser clients through one Policy's rules.
func TestGuardRules(t *testing.T) {
	const token = "s3cret-t0ken"
	p := httpguard.Policy{Token: token, Assets: []string{"/ui/assets/"}}
	for _, tc := range []struct {
		name, path, host string
		header           map[string]string
		want             int
	}{
		{"sdk without browser headers", "/ui/api/top", "127.0.0.1:1", map[string]string{"Authorization": "Bearer " + token}, 200},
		{"scheme in lower case", "/ui/api/top", "127.0.0.1:1", map[string]string{"Authorization": "bearer " + token}, 200},
		{"scheme in upper case", "/ui/api/top", "127.0.0.1:1", map[string]string{"Authorization": "BEARER " + token}, 200},
		{"same-origin POST of its own page", "/ui/api/base", "localhost:1", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "same-origin", "Origin": "http://localhost:1"}, 200},
		{"address bar", "/ui/", "[::1]:1", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "none"}, 200},
		{"no token", "/ui/api/top", "127.0.0.1:1", nil, 401},
		{"wrong token", "/ui/api/top", "127.0.0.1:1", map[string]string{"Authorization": "Bearer x" + token}, 401},
		{"another scheme", "/ui/api/top", "127.0.0.1:1", map[string]string{"Authorization": "Basic " + token}, 401},
		{"cross-site image", "/ui/api/notes", "127.0.0.1:1", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "cross-site"}, 403},
		{"another port", "/download", "127.0.0.1:1", map[string]string{"Sec-Fetch-Site": "same-site"}, 403},
		{"old browser, foreign Origin", "/ui/top", "127.0.0.1:1", map[string]string{"Origin": "http://evil.example"}, 403},
		{"cross-site asset", "/ui/assets/style.css", "127.0.0.1:1", map[string]string{"Authorization": "Bearer " + token, "Sec-Fetch-Site": "cross-site"}, 200},
		{"DNS rebinding", "/ui/", "evil.example:1", map[string]string{"Authorization": "Bearer " + token}, 403},
	} {
		r := httptest.NewRequest("GET", "http://"+tc.host+tc.path, nil)
		for k, v := range tc.header {
			r.Header.Set(k, v)
		}
		code, body, header := answer(p, r)
		if code != tc.want {
			t.Errorf("%s: %d %q, want %d", tc.name, code, body, tc.want)
		}
		if code != 200 && (strings.Contains(body, token) || header.Get("Connection") != "close") {
			t.Errorf("%s: refusal %q repeats the token or keeps the connection (Connection: %q)", tc.name, body, header.Get("Connection"))
		}
		if code == 401 && !strings.HasPrefix(header.Get("WWW-Authenticate"), "Bearer realm=") {
			t.Errorf("%s: 401 without a Bearer challenge", tc.name)
		}
	}
}

// TestBrowserLogin opens a token-protected server in a client that keeps
// cookies, as a browser does: ?token= once sets an HttpOnly SameSite=Strict
// cookie and redirects to the same URL without the token; later requests
// pass with the cookie alone; a wrong token in the URL gets 401.
func TestBrowserLogin(t *testing.T) {
	const token = "s3cret-t0ken"
	h := httpguard.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "view "+r.URL.RawQuery)
	}), httpguard.Policy{Token: token, BrowserLogin: true})
	srv := httptest.NewServer(h)
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	var redirects []string
	c := &http.Client{Jar: jar, CheckRedirect: func(r *http.Request, via []*http.Request) error {
		redirects = append(redirects, r.URL.String())
		return nil
	}}
	get := func(u string) (int, string, *http.Response) {
		t.Helper()
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp
	}
	if code, body, _ := get(srv.URL + "/ui/top?si=cpu"); code != 401 {
		t.Fatalf("without token: %d %q", code, body)
	}
	if code, _, _ := get(srv.URL + "/ui/top?token=wrong"); code != 401 {
		t.Fatalf("wrong token in the URL: %d", code)
	}
	code, body, _ := get(srv.URL + "/ui/top?si=cpu&token=" + token)
	if code != 200 || body != "view si=cpu" {
		t.Fatalf("login: %d %q", code, body)
	}
	if len(redirects) != 1 || strings.Contains(redirects[0], token) || !strings.HasSuffix(redirects[0], "/ui/top?si=cpu") {
		t.Errorf("login redirected to %q, want the same URL without the token", redirects)
	}
	if code, body, _ := get(srv.URL + "/ui/flamegraph"); code != 200 {
		t.Errorf("with the cookie: %d %q", code, body)
	}
	// The cookie's attributes, as the login answer sets them.
	r := httptest.NewRequest("GET", "http://127.0.0.1:8080//evil.example/?token="+token, nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	ck := w.Result().Cookies()
	if len(ck) != 1 || ck[0].Name != "perflab_token_8080" || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Path != "/" {
		t.Errorf("login cookie %+v, want perflab_token_8080, HttpOnly, SameSite=Strict, Path=/", ck)
	}
	if loc := w.Header().Get("Location"); strings.HasPrefix(loc, "//") || strings.Contains(loc, token) {
		t.Errorf("login of //evil.example/ redirects to %q", loc)
	}
}

func TestLoopbackPeer(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:5000": true,
		"127.9.9.9:1":    true,
		"[::1]:5000":     true,
		"10.1.2.3:5000":  false,
		"[2001:db8::1]:": false,
		"localhost:5000": false, // a name is not a peer address
		"":               false,
		"garbage":        false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		r.Host = "localhost" // never consulted
		if got := httpguard.LoopbackPeer(r); got != want {
			t.Errorf("LoopbackPeer(RemoteAddr %q) = %v, want %v", addr, got, want)
		}
	}
}

func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		":8080":          true,
		"127.0.0.1:0":    true,
		"localhost:1":    true,
		"[::1]:1":        true,
		"0.0.0.0:8080":   false,
		"[::]:8080":      false,
		"example.com:80": false,
	} {
		if got := httpguard.LoopbackAddr(addr); got != want {
			t.Errorf("LoopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}
