package querier

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/store"
)

// Options bound what a Service answers. Zero fields take the defaults.
type Options struct {
	// MaxNodesDefault is the number of flame graph nodes of an answer
	// whose request gives none; DefaultMaxNodes if 0.
	MaxNodesDefault int64
	// MaxNodes bounds the number of flame graph nodes a request may ask
	// for; DefaultMaxNodesLimit if 0.
	MaxNodes int64
	// MaxRequestBytes bounds a request's body; 1 MiB if 0.
	MaxRequestBytes int
}

// The defaults of Options: Pyroscope's.
const (
	DefaultMaxNodes      = 8 << 10
	DefaultMaxNodesLimit = 1 << 20
)

func (o Options) withDefaults() Options {
	if o.MaxNodesDefault <= 0 {
		o.MaxNodesDefault = DefaultMaxNodes
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodesLimit
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = 1 << 20
	}
	return o
}

// A Service answers Pyroscope's querier API (querier.v1.QuerierService)
// from a store.Reader. Its methods may be called concurrently.
type Service struct {
	querierv1connect.UnimplementedQuerierServiceHandler
	reader store.Reader
	opts   Options
}

var _ querierv1connect.QuerierServiceHandler = (*Service)(nil)

// New returns a Service that answers from r.
func New(r store.Reader, opts Options) *Service {
	return &Service{reader: r, opts: opts.withDefaults()}
}

// Handler returns the path prefix of the querier API and the handler that
// serves it over the connect, gRPC and gRPC-Web protocols.
func (s *Service) Handler() (string, http.Handler) {
	return querierv1connect.NewQuerierServiceHandler(s, connect.WithReadMaxBytes(s.opts.MaxRequestBytes))
}

// ProfileTypes lists the profile types stored in the request's range.
func (s *Service) ProfileTypes(ctx context.Context, req *connect.Request[querierv1.ProfileTypesRequest]) (*connect.Response[querierv1.ProfileTypesResponse], error) {
	types, err := s.reader.ProfileTypes(ctx, store.Selection{Start: millis(req.Msg.Start), End: millis(req.Msg.End)})
	if err != nil {
		return nil, connectError(err)
	}
	resp := &querierv1.ProfileTypesResponse{}
	for _, t := range types {
		resp.ProfileTypes = append(resp.ProfileTypes, &typesv1.ProfileType{ID: t.ID(), Name: t.Name,
			SampleType: t.SampleType, SampleUnit: t.SampleUnit, PeriodType: t.PeriodType, PeriodUnit: t.PeriodUnit})
	}
	return connect.NewResponse(resp), nil
}

// LabelNames lists the label names of the series any of the request's
// matchers picks (every series without matchers), LabelProfileType among
// them when there is any.
func (s *Service) LabelNames(ctx context.Context, req *connect.Request[typesv1.LabelNamesRequest]) (*connect.Response[typesv1.LabelNamesResponse], error) {
	names, err := s.union(ctx, req.Msg.Matchers, req.Msg.Start, req.Msg.End, func(ctx context.Context, sel store.Selection) ([]string, error) {
		names, err := s.reader.LabelNames(ctx, sel)
		if len(names) > 0 {
			names = append(names, LabelProfileType)
		}
		return names, err
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&typesv1.LabelNamesResponse{Names: names}), nil
}

// LabelValues lists the values of a label in the series any of the
// request's matchers picks; those of LabelProfileType are the IDs of
// their profile types.
func (s *Service) LabelValues(ctx context.Context, req *connect.Request[typesv1.LabelValuesRequest]) (*connect.Response[typesv1.LabelValuesResponse], error) {
	values, err := s.union(ctx, req.Msg.Matchers, req.Msg.Start, req.Msg.End, func(ctx context.Context, sel store.Selection) ([]string, error) {
		if req.Msg.Name != LabelProfileType {
			return s.reader.LabelValues(ctx, sel, req.Msg.Name)
		}
		sels, err := s.typedSelections(ctx, sel)
		var ids []string
		for _, typed := range sels {
			ids = append(ids, typed.Type.ID())
		}
		return ids, err
	})
	if err != nil {
		return nil, err
	}
	return connect.NewResponse(&typesv1.LabelValuesResponse{Names: values}), nil
}

// union returns the sorted union of list's answers for the selection of
// each matcher (every series when there is none). A matcher on
// LabelProfileType selects the series of the profile types it matches.
func (s *Service) union(ctx context.Context, matchers []string, start, end int64, list func(context.Context, store.Selection) ([]string, error)) ([]string, error) {
	sels, err := selections(matchers, start, end)
	if err != nil {
		return nil, err
	}
	var all []string
	for _, sel := range sels {
		typed := []store.Selection{sel}
		if hasTypeMatchers(typed) {
			if typed, err = s.typedSelections(ctx, sel); err != nil {
				return nil, connectError(err)
			}
		}
		for _, sel := range typed {
			got, err := list(ctx, sel)
			if err != nil {
				return nil, connectError(err)
			}
			all = append(all, got...)
		}
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}

// selections returns the selections of a request's matchers.
func selections(matchers []string, start, end int64) ([]store.Selection, error) {
	if len(matchers) == 0 {
		matchers = []string{""}
	}
	sels := make([]store.Selection, len(matchers))
	for i, m := range matchers {
		sel, err := store.ParseSelector(m)
		if err != nil {
			return nil, connect.NewError(connect.CodeInvalidArgument, err)
		}
		sels[i] = store.Selection{Selector: sel, Start: millis(start), End: millis(end)}
	}
	return sels, nil
}

// Series lists the series any of the request's matchers picks, one for
// each of their profile types with its ID as LabelProfileType, with only
// the labels the request names if it names any, each set once, sorted.
func (s *Service) Series(ctx context.Context, req *connect.Request[querierv1.SeriesRequest]) (*connect.Response[querierv1.SeriesResponse], error) {
	sels, err := selections(req.Msg.Matchers, req.Msg.Start, req.Msg.End)
	if err != nil {
		return nil, err
	}
	var all []store.Labels
	for _, sel := range sels {
		typed, err := s.typedSelections(ctx, sel)
		if err != nil {
			return nil, connectError(err)
		}
		for _, sel := range typed {
			series, err := s.reader.Series(ctx, sel)
			if err != nil {
				return nil, connectError(err)
			}
			for _, ls := range series {
				all = append(all, project(ls.With(LabelProfileType, sel.Type.ID()), req.Msg.LabelNames))
			}
		}
	}
	slices.SortFunc(all, store.Labels.Compare)
	all = slices.CompactFunc(all, func(a, b store.Labels) bool { return a.Compare(b) == 0 })
	resp := &querierv1.SeriesResponse{}
	for _, ls := range all {
		resp.LabelsSet = append(resp.LabelsSet, &typesv1.Labels{Labels: labelPairs(ls)})
	}
	return connect.NewResponse(resp), nil
}

// project returns the labels of ls that names lists, or ls if it lists
// none.
func project(ls store.Labels, names []string) store.Labels {
	if len(names) == 0 {
		return ls
	}
	var out store.Labels
	for _, l := range ls {
		if slices.Contains(names, l.Name) {
			out = append(out, l)
		}
	}
	return out
}

func labelPairs(ls store.Labels) []*typesv1.LabelPair {
	pairs := make([]*typesv1.LabelPair, len(ls))
	for i, l := range ls {
		pairs[i] = &typesv1.LabelPair{Name: l.Name, Value: l.Value}
	}
	return pairs
}

// GetProfileStats tells whether the store holds profiles, and the times
// of its oldest and newest, in milliseconds since the epoch (the largest
// and smallest int64 when it holds none, as Pyroscope answers).
func (s *Service) GetProfileStats(ctx context.Context, _ *connect.Request[typesv1.GetProfileStatsRequest]) (*connect.Response[typesv1.GetProfileStatsResponse], error) {
	st, err := s.reader.Stats(ctx)
	if err != nil {
		return nil, connectError(err)
	}
	resp := &typesv1.GetProfileStatsResponse{OldestProfileTime: math.MaxInt64, NewestProfileTime: math.MinInt64}
	if st.Profiles > 0 {
		resp.DataIngested = true
		resp.OldestProfileTime, resp.NewestProfileTime = st.Oldest.UnixMilli(), st.Newest.UnixMilli()
	}
	return connect.NewResponse(resp), nil
}

// millis returns the time of a request's milliseconds since the epoch;
// 0 is the zero time, which a Selection takes as no bound.
func millis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// errorCodes is the one table of the connect code each store error is
// answered with; anything else is an internal error.
var errorCodes = []struct {
	err  error
	code connect.Code
}{
	{store.ErrInvalid, connect.CodeInvalidArgument},
	{store.ErrLimit, connect.CodeInvalidArgument},
	{store.ErrNotFound, connect.CodeNotFound},
	{store.ErrBusy, connect.CodeResourceExhausted},
	{context.Canceled, connect.CodeCanceled},
	{context.DeadlineExceeded, connect.CodeDeadlineExceeded},
}

// connectError returns err as the API answers it: a connect error of the
// code errorCodes gives it, whose message is err's.
func connectError(err error) error {
	var ce *connect.Error
	if errors.As(err, &ce) {
		return err
	}
	for _, c := range errorCodes {
		if errors.Is(err, c.err) {
			return connect.NewError(c.code, err)
		}
	}
	return connect.NewError(connect.CodeInternal, err)
}

// invalidf returns a connect error of code InvalidArgument.
func invalidf(format string, args ...any) error {
	return connect.NewError(connect.CodeInvalidArgument, fmt.Errorf(format, args...))
}
