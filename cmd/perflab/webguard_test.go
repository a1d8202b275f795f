package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// TestWebPublicNeedsToken: -http on an address that is not loopback is a
// usage error without -http_token, $PERFLAB_HTTP_TOKEN or
// -insecure_public (it used to print a warning and serve every file a
// profile names to anyone); nothing is bound.
func TestWebPublicNeedsToken(t *testing.T) {
	prof := smallProfile(t)
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:8080", "example.com:80"} {
		var stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // in case it serves
		code := exitCode(&stderr, run(ctx, strings.NewReader(""), io.Discard, &stderr, []string{"web", "-no_browser", "-http=" + addr, prof}))
		cancel()
		msg, _, _ := strings.Cut(stderr.String(), "\n") // then the usage hint
		if code != 2 || !strings.Contains(msg, "-http_token") || !strings.Contains(msg, "-insecure_public") {
			t.Errorf("-http=%s without a token: exit %d, %q; want 2 and a line naming -http_token and -insecure_public", addr, code, stderr.String())
		}
	}
	t.Setenv(httpTokenEnv, "from-the-env")
	for _, tc := range []struct {
		wf   webFlags
		want string // in the error, "" for none
	}{
		{webFlags{addr: "0.0.0.0:8080"}, ""}, // the environment's token
		{webFlags{addr: "0.0.0.0:8080", token: "t"}, ""},
		{webFlags{addr: "127.0.0.1:8080"}, ""},
	} {
		ws, err := tc.wf.serve(nil, io.Discard, nil)
		if err != nil || ws.token == "" {
			t.Errorf("%+v: %v, token %q", tc.wf, err, ws.token)
		}
	}
	t.Setenv(httpTokenEnv, "")
	if ws, err := (&webFlags{addr: "0.0.0.0:8080", public: true}).serve(nil, io.Discard, nil); err != nil || !ws.anyHost() {
		t.Errorf("-insecure_public: %v, anyHost %v", err, ws.anyHost())
	}
}

// TestWebToken serves a profile with -http_token: a request without it
// gets 401, "Authorization: bearer" (any case) passes, and a browser that
// opens a URL once with ?token= gets a cookie and the same URL without it.
func TestWebToken(t *testing.T) {
	const token = "v1ewer-s3cret"
	base, stderr := startWebStderr(t, "-http_token="+token, smallProfile(t))
	if strings.Contains(stderr.String(), token) {
		t.Errorf("perflab web printed its token:\n%s", stderr.String())
	}
	if code, body := httpGet(t, base+"/ui/api/top"); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d %s", code, body)
	}
	req, _ := http.NewRequest("GET", base+"/ui/api/top", nil)
	req.Header.Set("Authorization", "BEARER "+token)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("with the bearer token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	resp, err := browser.Get(base + "/ui/top?token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Contains(resp.Request.URL.String(), token) {
		t.Errorf("?token=: %s at %s, want 200 at the URL without the token", resp.Status, resp.Request.URL)
	}
	if resp, err := browser.Get(base + "/download"); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("with the cookie: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestWebConnectionCap holds 300 connections to perflab web that send
// nothing, half a request line or the headers of an upload whose body
// never comes, as a client exhausting descriptors would (1,100 trickling
// POSTs locked a server out under a 1,024-descriptor limit): the server
// keeps at most 32 open and answers a normal request within 5 s.
func TestWebConnectionCap(t *testing.T) {
	const attackers = 300
	base := startWeb(t, smallProfile(t))
	addr := strings.TrimPrefix(base, "http://")
	conns := make([]net.Conn, attackers)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		switch i % 3 {
		case 1:
			fmt.Fprintf(c, "GET /ui/top HTTP/1.1\r\nHost: %s\r\n", addr)
		case 2:
			fmt.Fprintf(c, "POST /ui/api/base HTTP/1.1\r\nHost: %s\r\nContent-Length: 100000\r\n\r\n\x1f", addr)
		}
		conns[i] = c
	}
	start := time.Now()
	if code, body := httpGet(t, base+"/ui/api/top"); code != http.StatusOK {
		t.Fatalf("a request after %d idle connections: %d %s", attackers, code, body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a request after %d idle connections took %v", attackers, d)
	}
	n := testprog.StillOpen(conns, time.Second)
	if n > 32 {
		t.Errorf("%d of %d idle connections still open, want at most 32", n, attackers)
	}
}
