// Package servertest runs perflab server (package fleet) in tests: a
// real server on a loopback port, stopped when the test ends.
package servertest

import (
	"context"
	"net"
	"testing"

	"github.com/perflab/perflab/fleet"
)

// Serve serves a fleet.Server of o on a free loopback port until t ends,
// and returns its URL, http://127.0.0.1:PORT. The test fails if the
// server cannot start, or if Serve returns an error when it is stopped.
func Serve(t testing.TB, o fleet.Options) string {
	t.Helper()
	s, err := fleet.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("fleet.Server.Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}
