package querier_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"

	"github.com/perflab/perflab/querier"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// serve writes ps to a Reference store and serves the querier API over it
// on a loopback port. It returns a client of the protobuf codec and one
// of the JSON codec, and the store.
func serve(t *testing.T, ps ...store.Profile) (proto, json querierv1connect.QuerierServiceClient, ref *storetest.Reference) {
	t.Helper()
	ref = storetest.NewReference(store.Limits{})
	if err := ref.Write(context.Background(), ps...); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(querier.New(ref, querier.Options{}).Handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	proto = querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL)
	json = querierv1connect.NewQuerierServiceClient(srv.Client(), srv.URL, connect.WithProtoJSON())
	return proto, json, ref
}

var epoch = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

// stackProfile returns a CPU profile of service at t whose samples are
// stacks of function names (root first, separated by ;) with their CPU
// time; each function has a location of its own.
func stackProfile(service string, t time.Time, stacks map[string]int64) store.Profile {
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        1,
		TimeNanos:     t.UnixNano(),
		DurationNanos: int64(10 * time.Second),
		Mapping:       []*profile.Mapping{{ID: 1, Start: 0x1000, Limit: 0x100000, File: "/bin/" + service, HasFunctions: true}},
	}
	locs := map[string]*profile.Location{}
	keys := make([]string, 0, len(stacks))
	for k := range stacks {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		names := strings.Split(k, ";")
		slices.Reverse(names) // leaf first
		s := &profile.Sample{Value: []int64{1, stacks[k]}}
		for _, name := range names {
			loc := locs[name]
			if loc == nil {
				id := uint64(len(locs) + 1)
				fn := &profile.Function{ID: id, Name: name, SystemName: name, Filename: name + ".go", StartLine: 10}
				loc = &profile.Location{ID: id, Mapping: p.Mapping[0], Address: 0x1000 + id*16, Line: []profile.Line{{Function: fn, Line: 12}}}
				locs[name] = loc
				p.Function = append(p.Function, fn)
				p.Location = append(p.Location, loc)
			}
			s.Location = append(s.Location, loc)
		}
		p.Sample = append(p.Sample, s)
	}
	return store.Profile{Labels: store.NewLabels("__name__", "process_cpu", "service_name", service), Time: t, Profile: p}
}

// cpu is the ID of the CPU profile's type.
const cpu = "process_cpu:cpu:nanoseconds:cpu:nanoseconds"

// merge asks for the flame graph of sel over all time.
func merge(t *testing.T, c querierv1connect.QuerierServiceClient, sel string, maxNodes int64) *querierv1.FlameGraph {
	t.Helper()
	req := &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, LabelSelector: sel}
	if maxNodes != 0 {
		req.MaxNodes = &maxNodes
	}
	resp, err := c.SelectMergeStacktraces(context.Background(), connect.NewRequest(req))
	if err != nil {
		t.Fatalf("SelectMergeStacktraces(%s): %v", sel, err)
	}
	return resp.Msg.Flamegraph
}

// levels returns the values of a flame graph's levels.
func levels(ls []*querierv1.Level) [][]int64 {
	out := make([][]int64, len(ls))
	for i, l := range ls {
		out[i] = l.Values
	}
	return out
}

// stacksOf decodes a flame graph into the self value of each stack (its
// names, root first, joined by ;), checking that every node lies within
// its parent; it is written from the format's description, apart from the
// code that encodes it.
func stacksOf(t *testing.T, fg *querierv1.FlameGraph) map[string]int64 {
	t.Helper()
	type span struct {
		start, end int64
		path       string
	}
	stacks := map[string]int64{}
	var above []span
	for depth, l := range fg.Levels {
		var here []span
		var end int64
		for i := 0; i+3 < len(l.Values); i += 4 {
			x := end + l.Values[i]
			total, self, name := l.Values[i+1], l.Values[i+2], fg.Names[l.Values[i+3]]
			end = x + total
			path := name
			if depth > 0 {
				j := slices.IndexFunc(above, func(s span) bool { return s.start <= x && x+total <= s.end })
				if j < 0 {
					t.Fatalf("level %d: node %s at [%d, %d) lies under no node of the level above", depth, name, x, x+total)
				}
				path = strings.TrimPrefix(above[j].path+";"+name, "total;")
			}
			if self != 0 && depth > 0 {
				stacks[path] += self
			}
			here = append(here, span{x, x + total, path})
		}
		above = here
	}
	return stacks
}

// nameStacks returns the self value of each stack of function names of
// p's sample type index, as stacksOf decodes them.
func nameStacks(p *profile.Profile, index int) map[string]int64 {
	stacks := map[string]int64{}
	for _, s := range p.Sample {
		var names []string
		for _, loc := range s.Location {
			for _, l := range loc.Line {
				names = append(names, l.Function.Name)
			}
		}
		slices.Reverse(names)
		if v := s.Value[index]; v > 0 {
			stacks[strings.Join(names, ";")] += v
		}
	}
	return stacks
}
