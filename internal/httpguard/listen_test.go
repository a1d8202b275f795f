package httpguard_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/httpguard"
)

// TestListenPublicNeedsToken checks the address rule: a non-loopback
// address is refused without a token or Public, before anything is bound.
func TestListenPublicNeedsToken(t *testing.T) {
	h := http.NotFoundHandler()
	if _, err := httpguard.Listen("0.0.0.0:0", h, httpguard.Config{}); !errors.Is(err, httpguard.ErrPublic) {
		t.Errorf("0.0.0.0 without a token: %v, want ErrPublic", err)
	}
	for _, c := range []httpguard.Config{{Token: "t"}, {Public: true}} {
		s, err := httpguard.Listen("0.0.0.0:0", h, c)
		if err != nil {
			t.Errorf("0.0.0.0 with %+v: %v", c, err)
			continue
		}
		s.Close()
	}
	s, err := httpguard.Listen(":0", h, httpguard.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !httpguard.LoopbackAddr(s.Addr()) {
		t.Errorf("an empty host listens on %s, want loopback", s.Addr())
	}
}

// TestBurstQueued sends 100 requests at once, each on a new connection, to
// a server capped at 8 connections whose handler takes 20 ms: all are
// answered, the others waiting in the kernel's queue; none has its
// connection closed or reset because a newer one evicted it before its
// handler ran.
func TestBurstQueued(t *testing.T) {
	const burst = 100
	s, err := httpguard.Listen("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		io.WriteString(w, "ok")
	}), httpguard.Config{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.ServeContext(ctx)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}
	var mu sync.Mutex
	var failed []error
	var wg sync.WaitGroup
	for range burst {
		wg.Go(func() {
			resp, err := client.Get(s.URL() + "/")
			if err == nil {
				_, err = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			if err != nil {
				mu.Lock()
				failed = append(failed, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Errorf("%d of %d requests failed, such as: %v", len(failed), burst, failed[0])
	}
}
