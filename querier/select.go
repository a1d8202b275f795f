package querier

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"connectrpc.com/connect"
	"github.com/google/pprof/profile"
	googlev1 "github.com/grafana/pyroscope/api/gen/proto/go/google/v1"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"
	"google.golang.org/protobuf/proto"

	"github.com/perflab/perflab/store"
)

// A query is what the Select methods share: a selection of one profile
// type, and the stacks to keep.
type query struct {
	sel      store.Selection
	callSite []string // root first; nil keeps every stack
	// none: the selector's matchers on LabelProfileType exclude the type.
	none bool
}

// parseQuery reads the selection of a request.
func parseQuery(typeID, selector string, start, end int64, sts *typesv1.StackTraceSelector) (query, error) {
	if typeID == "" {
		return query{}, invalidf("profile_typeID: missing")
	}
	t, err := store.ParseProfileType(typeID)
	if err != nil {
		return query{}, invalidf("profile_typeID: %w", err)
	}
	sel, err := store.ParseSelector(selector)
	if err != nil {
		return query{}, invalidf("label_selector: %w", err)
	}
	sel, types := splitTypeMatchers(sel)
	q := query{sel: store.Selection{Type: t, Selector: sel, Start: millis(start), End: millis(end)}, none: !typeMatches(t, types)}
	if sts != nil {
		if sts.GoPgo != nil {
			return query{}, connect.NewError(connect.CodeUnimplemented, errors.New("stack_trace_selector.go_pgo: not supported; perflab pgo writes profiles for go build -pgo"))
		}
		for _, l := range sts.CallSite {
			q.callSite = append(q.callSite, l.Name)
		}
	}
	return q, nil
}

// merge returns the merged profile of q's selection, with only the
// samples of q's call site, or nil if the selection picks no profile.
func (s *Service) merge(ctx context.Context, q query) (*profile.Profile, error) {
	if q.none {
		return nil, nil
	}
	p, err := s.reader.Merge(ctx, q.sel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, connectError(err)
	}
	if len(q.callSite) > 0 {
		keepCallSite(p, q.callSite)
	}
	return p, nil
}

// A mergeRequest is what the requests of the Select methods and of each
// side of Diff say alike.
type mergeRequest interface {
	GetProfileTypeID() string
	GetLabelSelector() string
	GetStart() int64
	GetEnd() int64
	GetStackTraceSelector() *typesv1.StackTraceSelector
	GetProfileIdSelector() []string
	GetTraceIdSelector() []string
}

// selectMerge reads the selection of r and returns it, with its merged
// profile (nil if it picks none); spans are the request's span
// selectors, which perflab refuses as it refuses profile and trace ones.
func (s *Service) selectMerge(ctx context.Context, r mergeRequest, spans []string) (query, *profile.Profile, error) {
	if err := unsupported(r.GetProfileIdSelector(), r.GetTraceIdSelector(), spans); err != nil {
		return query{}, nil, err
	}
	q, err := parseQuery(r.GetProfileTypeID(), r.GetLabelSelector(), r.GetStart(), r.GetEnd(), r.GetStackTraceSelector())
	if err != nil {
		return query{}, nil, err
	}
	p, err := s.merge(ctx, q)
	return q, p, err
}

// keepCallSite drops the samples of p whose stack does not begin (root
// first) with the functions callSite names.
func keepCallSite(p *profile.Profile, callSite []string) {
	var stack []string
	p.Sample = slices.DeleteFunc(p.Sample, func(s *profile.Sample) bool {
		stack = stack[:0]
		for _, loc := range s.Location {
			stack = append(stack, locationNames(loc)...)
		}
		slices.Reverse(stack)
		return len(stack) < len(callSite) || !slices.Equal(stack[:len(callSite)], callSite)
	})
}

// tree returns the call tree of q's sample type in p (nil: no profile),
// truncated to maxNodes as Pyroscope's queriers truncate theirs.
func (q query) tree(p *profile.Profile, maxNodes int64) *tree {
	t := &tree{}
	if p != nil {
		t = treeOf(p, sampleIndex(p, q.sel.Type), q.callSite)
	}
	t.truncate(maxNodes)
	return t
}

// sampleIndex returns the index of t's sample type in p, or -1.
func sampleIndex(p *profile.Profile, t store.ProfileType) int {
	return slices.IndexFunc(p.SampleType, t.Matches)
}

// maxNodes returns the flame graph size a request asks for: the default
// if it gives none, an error if it asks for more than the limit.
func (s *Service) maxNodes(n *int64) (int64, error) {
	switch {
	case n == nil || *n == 0:
		return s.opts.MaxNodesDefault, nil
	case *n < 0 || *n > s.opts.MaxNodes:
		return 0, invalidf("max_nodes %d: want 1 to %d", *n, s.opts.MaxNodes)
	}
	return *n, nil
}

// SelectMergeStacktraces answers with the merge of the selected profiles,
// as a flame graph (the default), a tree or a pprof profile.
func (s *Service) SelectMergeStacktraces(ctx context.Context, req *connect.Request[querierv1.SelectMergeStacktracesRequest]) (*connect.Response[querierv1.SelectMergeStacktracesResponse], error) {
	m := req.Msg
	if m.Async != nil && m.Async.Type == querierv1.AsyncQueryType_ASYNC_QUERY_TYPE_FORCE {
		return nil, connect.NewError(connect.CodeUnimplemented, errors.New("async: perflab answers every query at once"))
	}
	maxNodes, err := s.maxNodes(m.MaxNodes)
	if err != nil {
		return nil, err
	}
	q, p, err := s.selectMerge(ctx, m, m.SpanSelector)
	if err != nil {
		return nil, err
	}
	resp := &querierv1.SelectMergeStacktracesResponse{}
	switch m.Format {
	case querierv1.ProfileFormat_PROFILE_FORMAT_UNSPECIFIED, querierv1.ProfileFormat_PROFILE_FORMAT_FLAMEGRAPH:
		resp.Flamegraph = flameGraph(q.tree(p, maxNodes), maxNodes)
	case querierv1.ProfileFormat_PROFILE_FORMAT_TREE:
		resp.Tree = q.tree(p, maxNodes).marshal()
	case querierv1.ProfileFormat_PROFILE_FORMAT_PPROF:
		gp, err := googleProfile(p, q.sel.Type)
		if err != nil {
			return nil, err
		}
		resp.Pprof = &querierv1.PprofProfile{Profile: gp}
	default:
		return nil, connect.NewError(connect.CodeUnimplemented, fmt.Errorf("format %v: perflab answers flame graphs, trees and pprof", m.Format))
	}
	return connect.NewResponse(resp), nil
}

// unsupported refuses the selectors of profiles, traces and spans, which
// perflab's store does not keep.
func unsupported(profileIDs, traceIDs, spanIDs []string) error {
	if len(profileIDs)+len(traceIDs)+len(spanIDs) > 0 {
		return connect.NewError(connect.CodeUnimplemented, errors.New("profile, trace and span selectors: not supported"))
	}
	return nil
}

// SelectMergeProfile answers with the merge of the selected profiles in
// pprof's format, whole: every sample type, with lines, inlined frames,
// mappings and labels.
func (s *Service) SelectMergeProfile(ctx context.Context, req *connect.Request[querierv1.SelectMergeProfileRequest]) (*connect.Response[googlev1.Profile], error) {
	q, p, err := s.selectMerge(ctx, req.Msg, nil)
	if err != nil {
		return nil, err
	}
	gp, err := googleProfile(p, q.sel.Type)
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(gp), nil
}

// googleProfile returns p (nil: an empty profile of type t) as Pyroscope's
// API carries a pprof profile.
func googleProfile(p *profile.Profile, t store.ProfileType) (*googlev1.Profile, error) {
	if p == nil {
		p = &profile.Profile{SampleType: []*profile.ValueType{{Type: t.SampleType, Unit: t.SampleUnit}},
			PeriodType: &profile.ValueType{Type: t.PeriodType, Unit: t.PeriodUnit}}
	}
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		return nil, connectError(fmt.Errorf("encoding the merged profile: %w", err))
	}
	gp := &googlev1.Profile{}
	if err := proto.Unmarshal(b.Bytes(), gp); err != nil {
		return nil, connectError(fmt.Errorf("encoding the merged profile: %w", err))
	}
	return gp, nil
}

// Diff answers with the flame graph of two selections side by side.
func (s *Service) Diff(ctx context.Context, req *connect.Request[querierv1.DiffRequest]) (*connect.Response[querierv1.DiffResponse], error) {
	sides := []*querierv1.SelectMergeStacktracesRequest{req.Msg.Left, req.Msg.Right}
	var trees [2]*tree
	var maxNodes int64
	for _, m := range sides {
		if m == nil {
			return nil, invalidf("left and right: both needed")
		}
		if m.MaxNodes != nil {
			maxNodes = max(maxNodes, *m.MaxNodes)
		}
	}
	maxNodes, err := s.maxNodes(&maxNodes)
	if err != nil {
		return nil, err
	}
	for i, m := range sides {
		q, p, err := s.selectMerge(ctx, m, m.SpanSelector)
		if err != nil {
			return nil, err
		}
		trees[i] = q.tree(p, maxNodes)
	}
	return connect.NewResponse(&querierv1.DiffResponse{Flamegraph: flameGraphDiff(trees[0], trees[1], maxNodes)}), nil
}

// SelectSeries answers with the total of the selection's profiles over
// time: one point for each step (a bucket aligned to multiples of the
// step since the epoch, at its start) that holds profiles, the sum of
// their totals, or their average with the AVERAGE aggregation; one series
// for each combination of the group_by labels' values, sorted, the limit
// largest if the request gives a limit.
func (s *Service) SelectSeries(ctx context.Context, req *connect.Request[querierv1.SelectSeriesRequest]) (*connect.Response[querierv1.SelectSeriesResponse], error) {
	m := req.Msg
	if m.StackTraceSelector != nil {
		return nil, connect.NewError(connect.CodeUnimplemented, errors.New("stack_trace_selector: not supported in series"))
	}
	q, err := parseQuery(m.ProfileTypeID, m.LabelSelector, m.Start, m.End, nil)
	if err != nil {
		return nil, err
	}
	step := time.Duration(m.Step * float64(time.Second))
	if step < time.Millisecond || m.Step > float64(366*24*time.Hour/time.Second) {
		return nil, invalidf("step %v: want a number of seconds from 0.001 to a year", m.Step)
	}
	tq := store.TotalsQuery{Selection: q.sel, Step: step, GroupBy: m.GroupBy}
	var series []*typesv1.Series
	switch {
	case q.none:
	case m.GetAggregation() == typesv1.TimeSeriesAggregationType_TIME_SERIES_AGGREGATION_TYPE_AVERAGE:
		series, err = s.averages(ctx, tq)
	default:
		series, err = s.sums(ctx, tq)
	}
	if err != nil {
		return nil, connectError(err)
	}
	if m.Limit != nil && *m.Limit > 0 {
		series = largest(series, int(*m.Limit))
	}
	return connect.NewResponse(&querierv1.SelectSeriesResponse{Series: series}), nil
}
