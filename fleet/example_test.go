package fleet_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// A perflab server over a store, on a loopback port: pushes, queries and
// the read API on one listener, until the context is done.
func ExampleServer_Serve() {
	st := storetest.NewReference(store.Limits{})
	st.Write(context.Background(), storetest.Fixture()...)
	s, err := fleet.New(fleet.Options{Store: st})
	if err != nil {
		fmt.Println(err)
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Serve(ctx, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/api/v1/label_values?name=service_name")
	if err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(string(body))
	}
	stop()
	fmt.Println(<-done)
	// Output:
	// ["api","db"]
	// <nil>
}
