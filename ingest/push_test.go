package ingest

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/store"
)

// labelPairs returns name, value pairs as the Push API's labels.
func labelPairs(pairs ...string) []*typesv1.LabelPair {
	var ls []*typesv1.LabelPair
	for i := 0; i < len(pairs); i += 2 {
		ls = append(ls, &typesv1.LabelPair{Name: pairs[i], Value: pairs[i+1]})
	}
	return ls
}

// pushClients are the Push API's clients perflab must serve: connect with
// binary protobuf, with JSON, and with gzipped requests.
var pushClients = []struct {
	name string
	opts []connect.ClientOption
}{
	{"protobuf", nil},
	{"json", []connect.ClientOption{connect.WithProtoJSON()}},
	{"gzip", []connect.ClientOption{connect.WithSendGzip()}},
}

// TestPush pushes two series of several profiles with each client, and
// checks that they are stored in one Write with their labels, less the
// private ones, and that a series without service_name gets
// unknown_service.
func TestPush(t *testing.T) {
	for _, c := range pushClients {
		t.Run(c.name, func(t *testing.T) {
			_, st, srv := newServer(t, Options{})
			client := pushv1connect.NewPusherServiceClient(srv.Client(), srv.URL, c.opts...)
			cpu, goroutines := encode(t, profileOf(t, "process_cpu")), encode(t, profileOf(t, "goroutines"))
			req := &pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{
				{Labels: labelPairs("__name__", "process_cpu", "service_name", "api", "__delta__", "false", "pod", "a"),
					Samples: []*pushv1.RawSample{{RawProfile: cpu}, {RawProfile: cpu}}},
				{Labels: labelPairs("__name__", "goroutines", "region", "eu"),
					Samples: []*pushv1.RawSample{{RawProfile: goroutines}}},
			}}
			if _, err := client.Push(context.Background(), connect.NewRequest(req)); err != nil {
				t.Fatal(err)
			}
			got := st.Written()
			if len(got) != 3 || st.Writes() != 1 {
				t.Fatalf("%d profiles in %d writes, want 3 in 1", len(got), st.Writes())
			}
			want := []store.Labels{
				store.NewLabels("__name__", "process_cpu", "service_name", "api", "pod", "a"),
				store.NewLabels("__name__", "process_cpu", "service_name", "api", "pod", "a"),
				store.NewLabels("__name__", "goroutines", "service_name", "unknown_service", "region", "eu"),
			}
			series, err := st.Series(context.Background(), store.Selection{})
			if err != nil || len(series) != 2 || series[0].Compare(want[2]) != 0 || series[1].Compare(want[0]) != 0 {
				t.Errorf("the store's series: %v, %v; want %s and %s", series, err, want[2], want[0])
			}
			for i, p := range got {
				if p.Labels.Compare(want[i]) != 0 {
					t.Errorf("profile %d: labels %s, want %s", i, p.Labels, want[i])
				}
				if len(p.Profile.Sample) != 3 {
					t.Errorf("profile %d: %d samples, want 3", i, len(p.Profile.Sample))
				}
			}
		})
	}
}

// TestPushHostile sends pushes that must be refused, each with one good
// series besides the bad one, and checks that nothing at all is stored:
// a push is written all or none.
func TestPushHostile(t *testing.T) {
	h, st, srv := newServer(t, Options{MaxRequestBytes: 2 << 20, MaxProfileBytes: 4 << 20})
	good := &pushv1.RawProfileSeries{Labels: labelPairs("__name__", "process_cpu", "service_name", "api"),
		Samples: []*pushv1.RawSample{{RawProfile: encode(t, profileOf(t, "process_cpu"))}}}
	many := []string{"__name__", "process_cpu", "service_name", "api"}
	for i := range 10000 {
		many = append(many, "l"+itoa(int64(i)), "v")
	}
	bad := func(labels []*typesv1.LabelPair, prof []byte) *pushv1.RawProfileSeries {
		return &pushv1.RawProfileSeries{Labels: labels, Samples: []*pushv1.RawSample{{RawProfile: prof}}}
	}
	cpuLabels := labelPairs("__name__", "process_cpu", "service_name", "api")
	goodProf := good.Samples[0].RawProfile
	for _, tc := range []struct {
		what   string
		series *pushv1.RawProfileSeries
		code   connect.Code
		msg    string
	}{
		{"truncated", bad(cpuLabels, goodProf[:len(goodProf)-10]), connect.CodeInvalidArgument, "series 1, profile 0: truncated gzip data"},
		{"gzip bomb", bad(cpuLabels, gzipBomb(16<<20)), connect.CodeInvalidArgument, "limit per profile"},
		{"10,000 labels", bad(labelPairs(many...), goodProf), connect.CodeInvalidArgument, "more than the limit"},
		{"100 MB name", bad(labelPairs("__name__", "process_cpu", "service_name", strings.Repeat("x", 100<<20)), goodProf), connect.CodeInvalidArgument, "more than the limit"},
		{"no __name__", bad(labelPairs("service_name", "api"), goodProf), connect.CodeInvalidArgument, "profile type"},
		{"bad __name__", bad(labelPairs("__name__", "cpu{x}", "service_name", "api"), goodProf), connect.CodeInvalidArgument, "profile type"},
		{"bad label name", bad(labelPairs("__name__", "process_cpu", "9lives", "x"), goodProf), connect.CodeInvalidArgument, "label name"},
		{"label given twice", bad(labelPairs("__name__", "process_cpu", "a", "x", "a", "y"), goodProf), connect.CodeInvalidArgument, "twice"},
		{"not a profile", bad(cpuLabels, []byte("{}")), connect.CodeInvalidArgument, "series 1, profile 0"},
	} {
		for _, c := range pushClients[:2] {
			if tc.what == "100 MB name" && c.name == "json" {
				continue // once is enough: refused by its size before it is read
			}
			client := pushv1connect.NewPusherServiceClient(srv.Client(), srv.URL, c.opts...)
			req := &pushv1.PushRequest{Series: []*pushv1.RawProfileSeries{good, tc.series}}
			_, err := client.Push(context.Background(), connect.NewRequest(req))
			var cerr *connect.Error
			if !errors.As(err, &cerr) || cerr.Code() != tc.code || !strings.Contains(cerr.Message(), tc.msg) || strings.Contains(cerr.Message(), "\n") {
				t.Errorf("%s (%s): %v, want %v with one line holding %q", tc.what, c.name, err, tc.code, tc.msg)
			}
		}
	}
	if n := len(st.Written()); n != 0 {
		t.Errorf("%d profiles stored, want none", n)
	}
	if n := h.InUse(); n != 0 {
		t.Errorf("%d bytes of the budget still held", n)
	}
}

// TestPushStatus checks the HTTP statuses the connect protocol gives
// Push's refusals: 400 for a bad push, 429 for a full store.
func TestPushStatus(t *testing.T) {
	_, st, srv := newServer(t, Options{})
	post := func(body string) int {
		resp, err := http.Post(srv.URL+PathPush, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	goodJSON := `{"series":[{"labels":[{"name":"__name__","value":"goroutines"},{"name":"service_name","value":"api"}],"samples":[{"rawProfile":"` +
		base64(encode(t, profileOf(t, "goroutines"))) + `"}]}]}`
	if got := post(`{"series":[{"labels":[{"name":"__name__","value":"x"}],"samples":[{"rawProfile":"AAAA"}]}]}`); got != http.StatusBadRequest {
		t.Errorf("bad profile: status %d, want 400", got)
	}
	st.SetBusy(true)
	if got := post(goodJSON); got != http.StatusTooManyRequests {
		t.Errorf("busy store: status %d, want 429", got)
	}
	st.SetBusy(false)
	if got := post(goodJSON); got != http.StatusOK {
		t.Errorf("good push: status %d, want 200", got)
	}
	if got := st.Written(); len(got) != 1 || time.Since(got[0].Time) > time.Minute {
		t.Errorf("stored %d profiles, want 1 of now", len(got))
	}
}
