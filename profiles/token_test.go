package profiles

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/perflab/perflab/collect"
)

const testToken = "s3cret-t0ken"

// tokenServer serves collect's debug handler, which requires testToken.
func tokenServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(collect.Handler(collect.ServerOptions{Token: testToken}))
	t.Cleanup(srv.Close)
	return srv
}

func TestToken(t *testing.T) {
	srv := tokenServer(t)
	heap := srv.URL + "/debug/pprof/heap"
	bearer := http.Header{"Authorization": {"Bearer " + testToken}}
	for _, tt := range []struct {
		name string
		opts Options
		want string // "" for success
	}{
		{"no token", Options{}, "server returned 401 Unauthorized: missing bearer token"},
		{"Token", Options{Token: testToken}, ""},
		{"Header", Options{Header: bearer}, ""},
		{"Header wins", Options{Token: "wrong-token", Header: bearer}, ""},
		{"wrong Token", Options{Token: testToken + "x"}, "401 Unauthorized: invalid bearer token"},
		{"wrong Header", Options{Header: http.Header{"Authorization": {"Bearer " + testToken + "x"}}}, "401 Unauthorized: invalid bearer token"},
	} {
		_, err := Fetch(context.Background(), heap, io.Discard, false, tt.opts)
		checkTokenResult(t, "Fetch "+tt.name, err, tt.want)
		_, err = Load(context.Background(), []string{heap}, tt.opts)
		checkTokenResult(t, "Load "+tt.name, err, tt.want)
	}
}

func checkTokenResult(t *testing.T, what string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", what, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v; want an error containing %q", what, err, want)
	case err != nil && strings.Contains(err.Error(), testToken):
		t.Errorf("%s: the error shows the token: %v", what, err)
	}
}

// TestTokenSymbolization loads a legacy text profile, which only the
// server can symbolize: the symbol requests need the token too.
func TestTokenSymbolization(t *testing.T) {
	srv := tokenServer(t)
	p, err := Load(context.Background(), []string{srv.URL + "/debug/pprof/goroutine?debug=1"}, Options{Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if !hasFunction(p, "runtime/pprof.writeGoroutine") {
		t.Errorf("not symbolized: no runtime/pprof.writeGoroutine among %d functions", len(p.Function))
	}
}

// TestTokenRedacted checks that a server repeating the token in its error
// message, or a password in the URL, does not put them in the error.
func TestTokenRedacted(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "you sent "+r.Header.Get("Authorization")+" and "+r.Header.Get("X-Api-Key"), http.StatusForbidden)
	}))
	defer echo.Close()
	for _, opts := range []Options{
		{Token: testToken},
		{Header: http.Header{"Authorization": {"Bearer " + testToken}}},
		{Header: http.Header{"X-Api-Key": {testToken}}},
	} {
		_, err := Fetch(context.Background(), echo.URL+"/x", io.Discard, false, opts)
		if err == nil || strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "<redacted>") {
			t.Errorf("Fetch with %v: %v; want the token redacted", opts.Header, err)
		}
	}
	withPassword := strings.Replace(echo.URL, "http://", "http://user:"+testToken+"@", 1) + "/x"
	_, err := Fetch(context.Background(), withPassword, io.Discard, false, Options{})
	if err == nil || strings.Contains(err.Error(), testToken) {
		t.Errorf("Fetch of a URL with a password: %v", err)
	}
}

// TestRedirectDropsToken checks that the token and -H headers are not
// sent on to another host (here another port) that a server redirects
// to, while a redirect on the same host keeps them.
func TestRedirectDropsToken(t *testing.T) {
	var mu sync.Mutex
	var got []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key"))
		mu.Unlock()
		http.Error(w, "no", http.StatusNotFound)
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/here" {
			mu.Lock()
			got = append(got, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key"))
			mu.Unlock()
			http.Error(w, "no", http.StatusNotFound)
			return
		}
		if r.URL.Path == "/same" {
			http.Redirect(w, r, "/here", http.StatusFound)
			return
		}
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
	}))
	defer first.Close()
	opts := Options{Token: testToken, Header: http.Header{"X-Api-Key": {"key-" + testToken}}}
	Fetch(context.Background(), first.URL+"/away", io.Discard, false, opts)
	Fetch(context.Background(), first.URL+"/same", io.Discard, false, opts)
	mu.Lock()
	defer mu.Unlock()
	want := []string{"|", "Bearer " + testToken + "|key-" + testToken}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after redirects the servers got %q; want %q", got, want)
	}
}

// TestTokenRedactedInBody checks that a 200 response repeating the token
// in a body that is not a profile does not put it in the error either.
func TestTokenRedactedInBody(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Header.Get("Authorization")+"\n")
	}))
	defer echo.Close()
	opts := Options{Token: testToken}
	_, err := Load(context.Background(), []string{echo.URL + "/x"}, opts)
	if err == nil || strings.Contains(err.Error(), testToken) {
		t.Errorf("Load: %v; want an error without the token", err)
	}
	_, err = Fetch(context.Background(), echo.URL+"/x", io.Discard, false, opts)
	if err == nil || strings.Contains(err.Error(), testToken) {
		t.Errorf("Fetch: %v; want an error without the token", err)
	}
}
