package querier_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"google.golang.org/protobuf/proto"

	"github.com/perflab/perflab/querier"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// TestFlameGraphFormat checks the flame graph of a small profile against
// the one Pyroscope's own tests give for the same stacks
// (pkg/model/flamegraph_test.go, Test_ExportToFlamebearer), in both
// codecs, and the tree format against the bytes its encoding gives.
func TestFlameGraphFormat(t *testing.T) {
	pc, jc, _ := serve(t, stackProfile("app", epoch, map[string]int64{"a;b;e": 1, "a;c": 2, "a;c;d": 1}))
	for name, c := range map[string]querierv1connect.QuerierServiceClient{"proto": pc, "json": jc} {
		fg := merge(t, c, `{service_name="app"}`, 0)
		wantNames := []string{"total", "a", "c", "d", "b", "e"}
		wantLevels := [][]int64{{0, 4, 0, 0}, {0, 4, 0, 1}, {0, 1, 0, 4, 0, 3, 2, 2}, {0, 1, 1, 5, 2, 1, 1, 3}}
		if !slices.Equal(fg.Names, wantNames) || !reflect.DeepEqual(levels(fg.Levels), wantLevels) || fg.Total != 4 || fg.MaxSelf != 2 {
			t.Errorf("%s: flame graph names %q levels %v total %d max_self %d; want %q %v 4 2",
				name, fg.Names, levels(fg.Levels), fg.Total, fg.MaxSelf, wantNames, wantLevels)
		}
	}
	// Two nodes at most: the nodes whose total is below the second
	// largest (c's, 3) fold into "other" under their parent, once in the
	// tree and again in the flame graph, where "other" comes last.
	fg := merge(t, pc, `{service_name="app"}`, 2)
	wantNames := []string{"total", "a", "other", "c"}
	wantLevels := [][]int64{{0, 4, 0, 0}, {0, 4, 0, 1}, {0, 3, 2, 3, 0, 1, 1, 2}, {2, 1, 1, 2}}
	if !slices.Equal(fg.Names, wantNames) || !reflect.DeepEqual(levels(fg.Levels), wantLevels) || fg.Total != 4 || fg.MaxSelf != 2 {
		t.Errorf("2 nodes: flame graph names %q levels %v total %d max_self %d; want %q %v 4 2",
			fg.Names, levels(fg.Levels), fg.Total, fg.MaxSelf, wantNames, wantLevels)
	}
	resp, err := pc.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpu, LabelSelector: "{}", Format: querierv1.ProfileFormat_PROFILE_FORMAT_TREE}))
	if err != nil {
		t.Fatal(err)
	}
	// Depth first, children in reverse order of their names: the root
	// (no name, self 0, 1 child), a, c, d, b, e.
	want := []byte("\x00\x00\x01" + "\x01a\x00\x02" + "\x01c\x02\x01" + "\x01d\x01\x00" + "\x01b\x00\x01" + "\x01e\x01\x00")
	if !bytes.Equal(resp.Msg.Tree, want) {
		t.Errorf("tree = %q, want %q", resp.Msg.Tree, want)
	}
}

// TestFlameGraphMatchesMerge checks the flame graph of a realistic
// selection (storetest's fixture: inlined frames, two instances loading
// the binary at other addresses, versions) against the stacks of
// google/pprof's profile.Merge of the same profiles, and that a
// truncated one keeps the total and the nodes it shows.
func TestFlameGraphMatchesMerge(t *testing.T) {
	fixture := storetest.Fixture()
	pc, _, _ := serve(t, fixture...)
	var picked []*profile.Profile
	for _, p := range fixture {
		if p.Labels.Get("service_name") == "api" && p.Labels.Get("__name__") == "process_cpu" {
			picked = append(picked, p.Profile)
		}
	}
	merged, err := profile.Merge(picked)
	if err != nil {
		t.Fatal(err)
	}
	want := nameStacks(merged, 1)
	full := merge(t, pc, `{service_name="api"}`, 1<<20)
	if got := stacksOf(t, full); !maps.Equal(got, want) {
		t.Errorf("flame graph has %d stacks, profile.Merge %d; they differ", len(got), len(want))
	}
	var total int64
	for _, v := range want {
		total += v
	}
	if full.Total != total {
		t.Errorf("total %d, want %d", full.Total, total)
	}

	small := merge(t, pc, `{service_name="api"}`, 40)
	if small.Total != total {
		t.Errorf("truncated: total %d, want %d", small.Total, total)
	}
	if n := len(small.Names); n > 42 || n < 10 {
		t.Errorf("truncated to 40 nodes: %d names", n)
	}
	// Every node the truncated graph shows but "other" has the total it
	// has in the whole graph.
	fullTotals, smallTotals := nodeTotals(full), nodeTotals(small)
	for path, v := range smallTotals {
		if !isOther(path) && fullTotals[path] != v {
			t.Errorf("truncated: %s has total %d, %d in the whole graph", path, v, fullTotals[path])
		}
	}
}

// nodeTotals returns the total of each node of fg by its path of names.
func nodeTotals(fg *querierv1.FlameGraph) map[string]int64 {
	totals := map[string]int64{}
	type span struct {
		start, end int64
		path       string
	}
	var above []span
	for _, l := range fg.Levels {
		var here []span
		var end int64
		for i := 0; i+3 < len(l.Values); i += 4 {
			x := end + l.Values[i]
			end = x + l.Values[i+1]
			path := fg.Names[l.Values[i+3]]
			for _, s := range above {
				if s.start <= x && end <= s.end {
					path = s.path + ";" + path
				}
			}
			totals[path] += l.Values[i+1]
			here = append(here, span{x, end, path})
		}
		above = here
	}
	return totals
}

func isOther(path string) bool { return len(path) >= 5 && path[len(path)-5:] == "other" }

// TestDiff checks Diff against the answers Pyroscope's own tests give
// for the same trees (pkg/model/flamegraph_diff_test.go): the same shape,
// different structures, and a max_nodes below the tree's size.
func TestDiff(t *testing.T) {
	pc, _, _ := serve(t,
		stackProfile("same-left", epoch, map[string]int64{"a;b": 1, "a;c": 2}),
		stackProfile("same-right", epoch, map[string]int64{"a;b": 4, "a;c": 8}),
		stackProfile("other-left", epoch, map[string]int64{"a;b": 1, "a;c": 2, "a;e": 3}),
		stackProfile("other-right", epoch, map[string]int64{"a;b": 4, "a;d": 8, "a;e": 12}),
	)
	for _, tc := range []struct {
		left, right string
		maxNodes    int64
		names       []string
		levels      [][]int64
		total, max  int64
	}{
		{"same-left", "same-right", 1024, []string{"total", "a", "c", "b"},
			[][]int64{{0, 3, 0, 0, 12, 0, 0}, {0, 3, 0, 0, 12, 0, 1}, {0, 1, 1, 0, 4, 4, 3, 0, 2, 2, 0, 8, 8, 2}}, 15, 8},
		{"other-left", "other-right", 1024, []string{"total", "a", "e", "d", "c", "b"},
			[][]int64{{0, 6, 0, 0, 24, 0, 0}, {0, 6, 0, 0, 24, 0, 1},
				{0, 1, 1, 0, 4, 4, 5, 0, 2, 2, 0, 0, 0, 4, 0, 0, 0, 0, 8, 8, 3, 0, 3, 3, 0, 12, 12, 2}}, 30, 12},
		{"same-left", "same-right", 2, []string{"total", "a", "other"},
			[][]int64{{0, 3, 0, 0, 12, 0, 0}, {0, 3, 0, 0, 12, 0, 1}, {0, 3, 3, 0, 12, 12, 2}}, 15, 12},
	} {
		side := func(service string) *querierv1.SelectMergeStacktracesRequest {
			return &querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, LabelSelector: fmt.Sprintf("{service_name=%q}", service), MaxNodes: &tc.maxNodes}
		}
		resp, err := pc.Diff(context.Background(), connect.NewRequest(&querierv1.DiffRequest{Left: side(tc.left), Right: side(tc.right)}))
		if err != nil {
			t.Fatal(err)
		}
		fg := resp.Msg.Flamegraph
		if !slices.Equal(fg.Names, tc.names) || !reflect.DeepEqual(levels(fg.Levels), tc.levels) || fg.Total != tc.total || fg.MaxSelf != tc.max {
			t.Errorf("%s vs %s, %d nodes: names %q levels %v total %d max_self %d; want %q %v %d %d",
				tc.left, tc.right, tc.maxNodes, fg.Names, levels(fg.Levels), fg.Total, fg.MaxSelf, tc.names, tc.levels, tc.total, tc.max)
		}
		if fg.LeftTicks+fg.RightTicks != fg.Total {
			t.Errorf("left %d + right %d ticks, total %d", fg.LeftTicks, fg.RightTicks, fg.Total)
		}
	}
}

// TestSelectMergeProfile checks that the pprof answers (SelectMergeProfile
// and SelectMergeStacktraces' pprof format) are the store's merge,
// whole, and that a selection of nothing is an empty profile.
func TestSelectMergeProfile(t *testing.T) {
	pc, _, ref := serve(t, storetest.Fixture()...)
	ctx := context.Background()
	sel, _ := store.ParseSelector(`{service_name="api"}`)
	kind, _ := store.LookupKind("heap")
	want, err := ref.Merge(ctx, store.Selection{Type: kind.Type, Selector: sel})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := pc.SelectMergeProfile(ctx, connect.NewRequest(&querierv1.SelectMergeProfileRequest{ProfileTypeID: kind.Type.ID(), LabelSelector: sel.String()}))
	if err != nil {
		t.Fatal(err)
	}
	stacks, err := pc.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: kind.Type.ID(), LabelSelector: sel.String(), Format: querierv1.ProfileFormat_PROFILE_FORMAT_PPROF}))
	if err != nil {
		t.Fatal(err)
	}
	for name, msg := range map[string]proto.Message{"SelectMergeProfile": resp.Msg, "pprof format": stacks.Msg.Pprof.Profile} {
		b, err := proto.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := profile.ParseData(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if g, w := encode(t, got), encode(t, want); !bytes.Equal(g, w) {
			t.Errorf("%s: the profile differs from the store's merge (%d bytes, want %d)", name, len(g), len(w))
		}
		if len(got.SampleType) != 4 || got.DefaultSampleType != "inuse_space" {
			t.Errorf("%s: sample types %v, default %s; want the heap profile's four, inuse_space", name, got.SampleType, got.DefaultSampleType)
		}
	}
	none, err := pc.SelectMergeProfile(ctx, connect.NewRequest(&querierv1.SelectMergeProfileRequest{ProfileTypeID: cpu, LabelSelector: `{service_name="none"}`}))
	if err != nil || len(none.Msg.Sample) != 0 {
		t.Errorf("selection of nothing: %v, %v", none, err)
	}
}

// encode returns p's encoding, once decoded again: two profiles are the
// same when these bytes are.
func encode(t *testing.T, p *profile.Profile) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	q, err := profile.ParseData(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := q.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestListings checks ProfileTypes, LabelNames, LabelValues, Series and
// GetProfileStats against the store's answers, with several matchers
// (their union) and a time range.
func TestListings(t *testing.T) {
	pc, _, ref := serve(t, storetest.Fixture()...)
	ctx := context.Background()
	api, _ := store.ParseSelector(`{service_name="api", __name__="memory"}`)
	db, _ := store.ParseSelector(`{service_name="db"}`)
	start, end := storetest.Epoch.Add(30*time.Minute), storetest.Epoch.Add(90*time.Minute)
	ms := func(t time.Time) int64 { return t.UnixMilli() }
	matchers := []string{api.String(), db.String()}

	types, err := pc.ProfileTypes(ctx, connect.NewRequest(&querierv1.ProfileTypesRequest{Start: ms(start), End: ms(end)}))
	if err != nil {
		t.Fatal(err)
	}
	wantTypes, _ := ref.ProfileTypes(ctx, store.Selection{Start: start, End: end})
	var gotTypes []string
	for _, pt := range types.Msg.ProfileTypes {
		gotTypes = append(gotTypes, pt.ID)
		if pt.ID != (store.ProfileType{Name: pt.Name, SampleType: pt.SampleType, SampleUnit: pt.SampleUnit, PeriodType: pt.PeriodType, PeriodUnit: pt.PeriodUnit}).ID() {
			t.Errorf("profile type %s: its parts say otherwise: %v", pt.ID, pt)
		}
	}
	if w := ids(wantTypes); !slices.Equal(gotTypes, w) {
		t.Errorf("ProfileTypes = %v, want %v", gotTypes, w)
	}

	names, err := pc.LabelNames(ctx, connect.NewRequest(&typesv1.LabelNamesRequest{Matchers: matchers, Start: ms(start), End: ms(end)}))
	if err != nil {
		t.Fatal(err)
	}
	n1, _ := ref.LabelNames(ctx, store.Selection{Selector: api, Start: start, End: end})
	n2, _ := ref.LabelNames(ctx, store.Selection{Selector: db, Start: start, End: end})
	if w := sortedUnion(append(n1, querier.LabelProfileType), n2); !slices.Equal(names.Msg.Names, w) {
		t.Errorf("LabelNames = %v, want %v", names.Msg.Names, w)
	}

	values, err := pc.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{Name: "__name__", Matchers: matchers}))
	if err != nil {
		t.Fatal(err)
	}
	if w := []string{"goroutines", "memory", "process_cpu"}; !slices.Equal(values.Msg.Names, w) {
		t.Errorf("LabelValues(__name__) = %v, want %v", values.Msg.Names, w)
	}

	series, err := pc.Series(ctx, connect.NewRequest(&querierv1.SeriesRequest{Matchers: []string{`{__name__="process_cpu"}`}, LabelNames: []string{"service_name", "instance"}}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ls := range series.Msg.LabelsSet {
		got = append(got, fmt.Sprint(ls.Labels))
	}
	if len(got) != 4 || !slices.IsSorted(got) {
		t.Errorf("Series projected on service_name and instance = %v, want 4 sets, sorted", got)
	}

	stats, err := pc.GetProfileStats(ctx, connect.NewRequest(&typesv1.GetProfileStatsRequest{}))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := ref.Stats(ctx)
	if m := stats.Msg; !m.DataIngested || m.OldestProfileTime != st.Oldest.UnixMilli() || m.NewestProfileTime != st.Newest.UnixMilli() {
		t.Errorf("GetProfileStats = %v, want the store's %v", m, st)
	}
	emptyPC, _, _ := serve(t)
	empty, err := emptyPC.GetProfileStats(ctx, connect.NewRequest(&typesv1.GetProfileStatsRequest{}))
	if err != nil || empty.Msg.DataIngested || empty.Msg.OldestProfileTime != math.MaxInt64 || empty.Msg.NewestProfileTime != math.MinInt64 {
		t.Errorf("GetProfileStats of an empty store = %v, %v", empty.Msg, err)
	}
}

func ids(types []store.ProfileType) []string {
	var out []string
	for _, t := range types {
		out = append(out, t.ID())
	}
	return out
}

func sortedUnion(a, b []string) []string {
	all := append(slices.Clone(a), b...)
	slices.Sort(all)
	return slices.Compact(all)
}

// TestSelectSeries checks the sums against the store's Totals, the
// averages against the profiles' totals, and the limit.
func TestSelectSeries(t *testing.T) {
	pc, _, ref := serve(t, storetest.Fixture()...)
	ctx := context.Background()
	sel, _ := store.ParseSelector(`{__name__="process_cpu"}`)
	cpuType, _ := store.ParseProfileType(cpu)
	req := &querierv1.SelectSeriesRequest{ProfileTypeID: cpu, LabelSelector: sel.String(), Step: 1800, GroupBy: []string{"service_name"}}
	resp, err := pc.SelectSeries(ctx, connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	want, err := ref.Totals(ctx, store.TotalsQuery{Selection: store.Selection{Type: cpuType, Selector: sel}, Step: 30 * time.Minute, GroupBy: []string{"service_name"}})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := showSeries(resp.Msg.Series), showTotals(want); g != w {
		t.Errorf("SelectSeries =\n%s\nwant the store's totals\n%s", g, w)
	}

	avg := typesv1.TimeSeriesAggregationType_TIME_SERIES_AGGREGATION_TYPE_AVERAGE
	req.Aggregation = &avg
	resp, err = pc.SelectSeries(ctx, connect.NewRequest(req))
	if err != nil {
		t.Fatal(err)
	}
	infos, _ := ref.Profiles(ctx, store.Selection{Type: cpuType, Selector: sel}, 0)
	for _, s := range resp.Msg.Series {
		for _, pt := range s.Points {
			var sum, n float64
			for _, in := range infos {
				if in.Labels.Get("service_name") == s.Labels[0].Value && store.BucketStart(in.Time, 30*time.Minute).UnixMilli() == pt.Timestamp {
					sum, n = sum+float64(in.Total), n+1
				}
			}
			if n == 0 || pt.Value != sum/n {
				t.Errorf("average of %s at %d = %v, want %v over %v profiles", s.Labels, pt.Timestamp, pt.Value, sum/n, n)
			}
		}
	}

	one := int64(1)
	req.Aggregation, req.Limit = nil, &one
	resp, err = pc.SelectSeries(ctx, connect.NewRequest(req))
	if err != nil || len(resp.Msg.Series) != 1 {
		t.Fatalf("limit 1: %v, %v", resp, err)
	}
	var sums []int64
	for _, ts := range want {
		var s int64
		for _, p := range ts.Points {
			s += p.Value
		}
		sums = append(sums, s)
	}
	top := want[slices.Index(sums, slices.Max(sums))].Labels.Get("service_name")
	if got := resp.Msg.Series[0].Labels[0].Value; got != top {
		t.Errorf("limit 1 kept %s, want %s, the largest", got, top)
	}
}

func showSeries(series []*typesv1.Series) string {
	var b bytes.Buffer
	for _, s := range series {
		for _, l := range s.Labels {
			fmt.Fprintf(&b, "%s=%s ", l.Name, l.Value)
		}
		for _, p := range s.Points {
			fmt.Fprintf(&b, "%d:%v ", p.Timestamp, p.Value)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func showTotals(series []store.TimeSeries) string {
	var b bytes.Buffer
	for _, s := range series {
		for _, l := range s.Labels {
			fmt.Fprintf(&b, "%s=%s ", l.Name, l.Value)
		}
		for _, p := range s.Points {
			fmt.Fprintf(&b, "%d:%v ", p.Time.UnixMilli(), float64(p.Value))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestErrors checks that bad requests get InvalidArgument, what perflab
// does not do Unimplemented, and that a selection of nothing is an empty
// flame graph rather than an error.
func TestErrors(t *testing.T) {
	pc, _, _ := serve(t, stackProfile("app", epoch, map[string]int64{"a": 1}))
	ctx := context.Background()
	huge := int64(1 << 30)
	for _, tc := range []struct {
		req  *querierv1.SelectMergeStacktracesRequest
		code connect.Code
	}{
		{&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, LabelSelector: `{service_name=}`}, connect.CodeInvalidArgument},
		{&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: "cpus", LabelSelector: `{}`}, connect.CodeInvalidArgument},
		{&querierv1.SelectMergeStacktracesRequest{LabelSelector: `{}`}, connect.CodeInvalidArgument},
		{&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, MaxNodes: &huge}, connect.CodeInvalidArgument},
		{&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, SpanSelector: []string{"9a517183f26a089d"}}, connect.CodeUnimplemented},
		{&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: cpu, Format: querierv1.ProfileFormat_PROFILE_FORMAT_DOT}, connect.CodeUnimplemented},
	} {
		_, err := pc.SelectMergeStacktraces(ctx, connect.NewRequest(tc.req))
		var ce *connect.Error
		if !errors.As(err, &ce) || ce.Code() != tc.code {
			t.Errorf("%v: error %v, want code %v", tc.req, err, tc.code)
		}
	}
	fg := merge(t, pc, `{service_name="nothing"}`, 0)
	if !slices.Equal(fg.Names, []string{"total"}) || fg.Total != 0 {
		t.Errorf("flame graph of nothing = %v", fg)
	}
}

// TestProfileTypeLabel checks the label Pyroscope gives every series, the
// ID of its profile type, which Grafana's profiles apps select with: it is
// listed, its values are the types, its matchers select types in every
// method, and Series lists a series for each type.
func TestProfileTypeLabel(t *testing.T) {
	pc, _, ref := serve(t, storetest.Fixture()...)
	ctx := context.Background()
	goroutine, _ := store.LookupKind("goroutine")
	heap, _ := store.LookupKind("heap")
	db, _ := store.ParseSelector(`{service_name="db"}`)
	dbTypes, err := ref.ProfileTypes(ctx, store.Selection{Selector: db})
	if err != nil {
		t.Fatal(err)
	}
	values, err := pc.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{Name: querier.LabelProfileType, Matchers: []string{db.String()}}))
	if err != nil || !slices.Equal(values.Msg.Names, ids(dbTypes)) {
		t.Errorf("LabelValues(__profile_type__) of db = %v, %v; want its types %v", values.Msg.Names, err, ids(dbTypes))
	}
	byType := fmt.Sprintf("{__profile_type__=%q}", goroutine.Type.ID())
	services, err := pc.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name", Matchers: []string{byType}}))
	if err != nil || !slices.Equal(services.Msg.Names, []string{"db"}) {
		t.Errorf("LabelValues(service_name) of %s = %v, %v; want [db], which alone has goroutine profiles", byType, services.Msg.Names, err)
	}
	series, err := pc.Series(ctx, connect.NewRequest(&querierv1.SeriesRequest{
		Matchers:   []string{`{service_name="api", __profile_type__=~"memory:.*"}`},
		LabelNames: []string{"service_name", querier.LabelProfileType}}))
	if err != nil {
		t.Fatal(err)
	}
	apiHeap, _ := ref.ProfileTypes(ctx, store.Selection{Selector: mustSelector(t, `{service_name="api", __name__="memory"}`)})
	var got []string
	for _, ls := range series.Msg.LabelsSet {
		if len(ls.Labels) != 2 || ls.Labels[0].Name != querier.LabelProfileType || ls.Labels[1].Value != "api" {
			t.Errorf("Series: labels %v, want __profile_type__ and service_name=api", ls.Labels)
			continue
		}
		got = append(got, ls.Labels[0].Value)
	}
	if !slices.Equal(got, ids(apiHeap)) {
		t.Errorf("Series of api's memory types: %v, want %v", got, ids(apiHeap))
	}
	for _, tc := range []struct {
		selector string
		empty    bool
	}{
		{fmt.Sprintf("{service_name=\"api\", __profile_type__=%q}", heap.Type.ID()), false},
		{fmt.Sprintf("{service_name=\"api\", __profile_type__!=%q}", heap.Type.ID()), true},
	} {
		resp, err := pc.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{ProfileTypeID: heap.Type.ID(), LabelSelector: tc.selector}))
		if err != nil {
			t.Fatal(err)
		}
		if empty := resp.Msg.Flamegraph.Total == 0; empty != tc.empty {
			t.Errorf("heap flame graph of %s: total %d, want empty %v", tc.selector, resp.Msg.Flamegraph.Total, tc.empty)
		}
	}
}

func mustSelector(t *testing.T, s string) store.Selector {
	t.Helper()
	sel, err := store.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}
