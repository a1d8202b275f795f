package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestServerFlags checks perflab server's refusals of its flags: each a
// usage error (exit status 2) naming the flag, before any store is opened.
func TestServerFlags(t *testing.T) {
	t.Setenv(tokenEnv, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"server", "-http", "0.0.0.0:4040"}, "-http 0.0.0.0:4040: an address that is not loopback needs a token: give -token"},
		{[]string{"server", "-http", "[::]:0"}, "needs a token"},
		{[]string{"server", "-http", "4040"}, `-http "4040": want HOST:PORT`},
		{[]string{"server", "-retention", "two weeks"}, "-retention: duration"},
		{[]string{"server", "-scrape", "api"}, `-scrape "api": want JOB=ADDR`},
		{[]string{"server", "-scrape", "api=a:1", "-scrape", "api=b:1"}, "api"},
		{[]string{"server", "-config", "/nonexistent/scrape.yaml"}, "-config:"},
		{[]string{"server", "extra"}, "takes flags only"},
	} {
		_, _, err := runErr(tc.args...)
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("perflab %q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
		if code := exitCode(io.Discard, err); code != 2 {
			t.Errorf("perflab %q: exit status %d, want 2", tc.args, code)
		}
	}
}
