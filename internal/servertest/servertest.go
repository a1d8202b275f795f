// Package servertest runs perflab server (package fleet) in tests: a
// real server on a loopback port, stopped when the test ends.
package servertest

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"testing"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/store"
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

// Push pushes p to the perflab server at url through Pyroscope's Push
// API, one profile a request; a refusal is a *connect.Error (429 is
// connect.CodeResourceExhausted).
func Push(ctx context.Context, url string, p store.Profile) error {
	var b bytes.Buffer
	if err := p.Profile.Write(&b); err != nil {
		return err
	}
	var ls []*typesv1.LabelPair
	for _, l := range p.Labels {
		ls = append(ls, &typesv1.LabelPair{Name: l.Name, Value: l.Value})
	}
	c := pushv1connect.NewPusherServiceClient(http.DefaultClient, url)
	_, err := c.Push(ctx, connect.NewRequest(&pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{
		{Labels: ls, Samples: []*pushv1.RawSample{{RawProfile: b.Bytes()}}}}}))
	return err
}
