package storetest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// The Reference answers as every backend must: here the merge of the CPU
// profiles of one service over the fixture's first hour, and the totals of
// its two instances by half hour.
func ExampleReference() {
	ctx := context.Background()
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(ctx, storetest.Fixture()...); err != nil {
		panic(err)
	}
	cpu, _ := store.ParseProfileType("cpu")
	api, _ := store.ParseSelector(`{service_name="api"}`)
	sel := store.Selection{Type: cpu, Selector: api, Start: storetest.Epoch, End: storetest.Epoch.Add(time.Hour)}
	infos, _ := ref.Profiles(ctx, sel, 0)
	p, err := ref.Merge(ctx, sel)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d profiles merged: %v of profiling, default type %s\n", len(infos), time.Duration(p.DurationNanos), p.DefaultSampleType)
	series, _ := ref.Totals(ctx, store.TotalsQuery{Selection: sel, Step: 30 * time.Minute, GroupBy: []string{"instance"}})
	for _, ts := range series {
		fmt.Println(ts.Labels, len(ts.Points), "points from", ts.Points[0].Time.Format(time.TimeOnly))
	}
	// Output:
	// 13 profiles merged: 2h10m0s of profiling, default type cpu
	// {instance="api-0"} 2 points from 00:00:00
	// {instance="api-1"} 2 points from 00:00:00
}

// A backend's test runs the suite, which compares it with the Reference:
//
//	func TestSuite(t *testing.T) {
//		storetest.Run(t, storetest.Backend{
//			Open: func(t *testing.T, limits store.Limits) store.Store {
//				s, err := dirstore.Open(t.TempDir(), dirstore.Options{Limits: limits})
//				if err != nil {
//					t.Fatal(err)
//				}
//				return s
//			},
//			Partition: 24 * time.Hour, // DropBefore drops whole days
//		})
//	}
func ExampleRun() {}
