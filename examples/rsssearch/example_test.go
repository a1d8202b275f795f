package rsssearch_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/perflab/perflab/examples/rsssearch"
)

// Search the generated feeds for covid-19 with the tuned variant.
func Example() {
	feeds := httptest.NewServer(rsssearch.NewFeedServer(rsssearch.FeedOptions{}))
	defer feeds.Close()
	svc := rsssearch.New(rsssearch.Options{Variant: rsssearch.Tuned, FeedsURL: feeds.URL})
	results, err := svc.Search(context.Background(), "covid-19", rsssearch.Engines)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(results), "results; first:", results[0].Title)
	// Output: 15 results; first: CNN story 5: Health Africa Coronavirus from London hospital.
}
