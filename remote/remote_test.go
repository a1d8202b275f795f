package remote_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// overHTTP is a store whose writes go to a Reference and whose reads go
// through the read API of a server over that Reference, on a loopback
// port: storetest's suite then checks that the Reader answers as the
// store behind the server does, byte for byte.
type overHTTP struct {
	*remote.Reader
	ref *storetest.Reference
	srv *httptest.Server
}

func (s *overHTTP) Write(ctx context.Context, ps ...store.Profile) error {
	return s.ref.Write(ctx, ps...)
}
func (s *overHTTP) DropBefore(ctx context.Context, t time.Time) error {
	return s.ref.DropBefore(ctx, t)
}
func (s *overHTTP) Close() error {
	s.Reader.Close()
	s.srv.Close()
	return s.ref.Close()
}

func openOverHTTP(t *testing.T, limits store.Limits) store.Store {
	ref := storetest.NewReference(limits)
	srv := httptest.NewServer(remote.NewHandler(ref))
	r, err := remote.Open(context.Background(), srv.URL, remote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &overHTTP{Reader: r, ref: ref, srv: srv}
}

// TestReaderAnswersAsTheStore runs the backends' suite on a Reader of a
// server: every answer must be the Reference's, through HTTP.
func TestReaderAnswersAsTheStore(t *testing.T) {
	storetest.Run(t, storetest.Backend{Open: openOverHTTP})
}

// TestReaderErrors checks that Open refuses what is not a server's URL
// and a server that wants a token, naming the URL, and that the server's
// refusals of bad parameters wrap store.ErrInvalid.
func TestReaderErrors(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"ftp://x", "127.0.0.1:4040", "http://"} {
		if _, err := remote.Open(ctx, u, remote.Options{}); err == nil || !strings.Contains(err.Error(), "want an http") {
			t.Errorf("Open(%q) = %v, want a refusal of the URL", u, err)
		}
	}
	ref := storetest.NewReference(store.Limits{})
	h := remote.NewHandler(ref)
	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "missing bearer token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer locked.Close()
	_, err := remote.Open(ctx, locked.URL, remote.Options{})
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), locked.URL+"/api/v1/stats") {
		t.Errorf("Open without the token = %v, want a 401 naming the URL", err)
	}
	r, err := remote.Open(ctx, locked.URL+"/", remote.Options{Token: "s3cret"})
	if err != nil {
		t.Fatalf("Open with the token: %v", err)
	}
	defer r.Close()
	_, err = r.Totals(ctx, store.TotalsQuery{Step: -time.Second})
	if !errors.Is(err, store.ErrInvalid) {
		t.Errorf("Totals with a negative step = %v, want store.ErrInvalid", err)
	}
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("an error shows the token: %v", err)
	}
}

// TestReaderBoundsAnswers checks that an answer larger than MaxBytes
// fails with profiles.ErrTooLarge after allocating about MaxBytes, not
// the two to three times as much of a buffer that doubles.
func TestReaderBoundsAnswers(t *testing.T) {
	const limit = 32 << 20
	zeros := make([]byte, 1<<20)
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for r.Context().Err() == nil {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := remote.Open(context.Background(), endless.URL, remote.Options{MaxBytes: limit})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, profiles.ErrTooLarge) {
		t.Errorf("Open of a server whose answer never ends = %v, want profiles.ErrTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > limit*3/2 {
		t.Errorf("reading the answer allocated %d MB, more than 1.5 x the limit of %d MB", alloc>>20, limit>>20)
	}
}
