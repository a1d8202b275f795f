package profiles_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/perflab/perflab/profiles"
)

// Fetch saves a profile as the server sent it, sending a token to a
// protected server; a response that is neither a profile nor a trace is
// refused unless raw is set.
func ExampleFetch() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			http.Error(w, "missing bearer token", http.StatusUnauthorized)
			return
		}
		io.WriteString(w, goroutines)
	}))
	defer srv.Close()
	var saved bytes.Buffer
	s, err := profiles.Fetch(context.Background(), srv.URL+"/debug/pprof/goroutine?debug=1", &saved, false, profiles.Options{Token: "s3cret"})
	if err != nil {
		log.Fatal(err)
	}
	total := int64(0)
	for _, sm := range s.Profile.Sample {
		total += sm.Value[0]
	}
	fmt.Printf("%s of %d goroutines in %d records, saved as sent: %t\n", s.Kind, total, len(s.Profile.Sample), saved.String() == goroutines)
	// Output:
	// profile of 5 goroutines in 2 records, saved as sent: true
}
