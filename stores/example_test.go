package stores_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"

	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
	"github.com/perflab/perflab/stores"
)

// The URL of a running perflab server is a store to read, not to write.
func ExampleOpenReader() {
	st := storetest.NewReference(store.Limits{})
	st.Write(context.Background(), storetest.Fixture()...)
	srv := httptest.NewServer(remote.NewHandler(st))
	defer srv.Close()

	r, err := stores.OpenReader(context.Background(), srv.URL, stores.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	stats, _ := r.Stats(context.Background())
	fmt.Println(stats.Series, "series")

	_, err = stores.Open(context.Background(), srv.URL, stores.Options{})
	fmt.Println(errors.Is(err, stores.ErrReadOnly))
	// Output:
	// 9 series
	// true
}
