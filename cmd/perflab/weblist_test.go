package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// startWeblist runs "perflab weblist -no_browser ARGS" in process and
// returns the URL of the source view it would open (the server's base
// from stderr); the server stops when the test ends.
func startWeblist(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, strings.NewReader(""), io.Discard, &stderr, append([]string{"weblist", "-no_browser"}, args...))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("perflab weblist: %v", err)
		}
	})
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := servingRx.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-done:
			t.Fatalf("perflab weblist exited: %v\n%s", err, stderr.String())
		default:
		}
	}
	t.Fatalf("perflab weblist did not serve:\n%s", stderr.String())
	return ""
}

// TestWeblist serves a real program's profile with its binary given, as
// pprof -weblist: the source view lists hash's lines with instructions.
func TestWeblist(t *testing.T) {
	p := buildProfiled(t, "hash")
	base := startWeblist(t, `main\.hash`, p.bin, p.cpu)
	resp, err := http.Get(base + `/ui/source?f=main%5C.hash`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{"main.hash in ", `class="inst"`, `class="line hot expandable"`, `id="notes-toggle"`} {
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte(want)) {
			t.Errorf("source view %d lacks %q", resp.StatusCode, want)
		}
	}
	if bytes.Contains(body, []byte("no assembly")) {
		t.Errorf("the binary was given but the view has no assembly")
	}
}

// TestWeblistBadInput: a broken regexp is a usage error, a regexp that
// lists nothing and a missing profile are one-line errors, before
// anything is served.
func TestWeblistBadInput(t *testing.T) {
	p := buildProfiled(t, "hash")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"weblist", "-no_browser", "(", p.cpu}, "REGEX"},
		{[]string{"weblist", "-no_browser", "nosuchfunction", p.cpu}, "no matches found for regexp: nosuchfunction"},
		{[]string{"weblist", "-no_browser", "main", p.dir + "/missing.pprof"}, "missing.pprof"},
		{[]string{"weblist", "-no_browser", "main"}, "no profile given"},
	} {
		var stderr bytes.Buffer
		err := run(context.Background(), strings.NewReader(""), io.Discard, &stderr, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want one line with %q", tc.args[2:], err, tc.want)
		}
		if strings.Contains(stderr.String(), "Serving") {
			t.Errorf("%v served: %s", tc.args[2:], stderr.String())
		}
	}
}
