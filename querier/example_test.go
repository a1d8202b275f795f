package querier_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"

	"github.com/perflab/perflab/querier"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// A store served through Pyroscope's querier API, read with Pyroscope's
// own client: the flame graph of a service's CPU time, by function name.
func ExampleService() {
	st := storetest.NewReference(store.Limits{})
	st.Write(context.Background(), stackProfile("checkout", epoch, map[string]int64{"main;handle;json.Marshal": 30, "main;handle": 10}))

	mux := http.NewServeMux()
	mux.Handle(querier.New(st, querier.Options{}).Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	client := querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	resp, err := client.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: "process_cpu:cpu:nanoseconds:cpu:nanoseconds",
		LabelSelector: `{service_name="checkout"}`,
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fg := resp.Msg.Flamegraph
	fmt.Println(fg.Names, fg.Total)
	for _, l := range fg.Levels {
		fmt.Println(l.Values)
	}
	// Output:
	// [total main handle json.Marshal] 40
	// [0 40 0 0]
	// [0 40 0 1]
	// [0 40 10 2]
	// [10 30 30 3]
}
