package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-chi/chi/v5"
	"github.com/perflab/perflab/collect"
)

// collect's debug handler mounts on a third-party router such as chi: it
// sees the full request path, so it is mounted at its prefix.
func Example_chi() {
	r := chi.NewRouter()
	r.Get("/v1/leftpad/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, `{"str":"   go"}`) })
	r.Mount("/debug", collect.Handler(collect.ServerOptions{}))

	for _, path := range []string{"/debug/pprof/allocs?debug=1", "/debug/metrics", "/debug/pprof/profile?seconds=forever"} {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
		fmt.Println(path, w.Code)
	}
	// Output:
	// /debug/pprof/allocs?debug=1 200
	// /debug/metrics 200
	// /debug/pprof/profile?seconds=forever 400
}
