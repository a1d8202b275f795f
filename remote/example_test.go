package remote_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// A server's read API, and a Reader of it: the same answers as the store
// behind the server.
func ExampleOpen() {
	st := storetest.NewReference(store.Limits{})
	st.Write(context.Background(), storetest.Fixture()...)
	srv := httptest.NewServer(remote.NewHandler(st))
	defer srv.Close()

	r, err := remote.Open(context.Background(), srv.URL, remote.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	services, err := r.LabelValues(context.Background(), store.Selection{}, "service_name")
	fmt.Println(services, err)

	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(`{service_name="db"}`)
	p, err := r.Merge(context.Background(), store.Selection{Type: cpu.Type, Selector: sel, Start: storetest.Epoch})
	fmt.Println(p.DefaultSampleType, err)
	// Output:
	// [api db] <nil>
	// cpu <nil>
}
