package fleettest

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"connectrpc.com/connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/servertest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// bearer is an http.RoundTripper that sends a bearer token.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestSDKThroughServer runs a real program instrumented with Pyroscope's
// Go SDK against a perflab server with a token, which the SDK sends as
// Basic authentication's password; then reads its profiles back through
// the querier API with the api module's connect client, and through
// perflab query against the server's URL, which writes the bytes of the
// store's own merge.
func TestSDKThroughServer(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "pyroapp")
	gobin := testprog.Oracle(t, "go")
	if out, err := exec.Command(gobin, "build", "-o", bin, "./testdata/pyroapp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// perflab is built in its own module (the parent directory), whose
	// go.sum has its dependencies.
	perflab := filepath.Join(t.TempDir(), "perflab")
	build := exec.Command(gobin, "build", "-o", perflab, "./cmd/perflab")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/perflab: %v\n%s", err, out)
	}
	ref := storetest.NewReference(store.Limits{})
	url := servertest.Serve(t, fleet.Options{Store: ref, Token: "s3cret"})

	start := time.Now().Add(-time.Minute)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "SERVER="+url, "AUTH_USER=fleet-app", "AUTH_PASSWORD=s3cret", "UPLOAD_RATE=1s", "RUN_FOR=2500ms")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pyroapp: %v\n%s", err, out)
	}
	ctx := context.Background()
	q := querierv1connect.NewQuerierServiceClient(&http.Client{Transport: bearer{"s3cret"}}, url)
	services, err := q.LabelValues(ctx, connect.NewRequest(&typesv1.LabelValuesRequest{Name: "service_name"}))
	if err != nil || !slices.Equal(services.Msg.Names, []string{"fleet-app"}) {
		t.Fatalf("LabelValues(service_name) = %v, %v; want the SDK's application alone", services, err)
	}
	cpu, _ := store.LookupKind("cpu")
	fg, err := q.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpu.Type.ID(), LabelSelector: `{service_name="fleet-app"}`, Start: start.UnixMilli()}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(fg.Msg.Flamegraph.Names, "main.work.func1") {
		t.Errorf("the flame graph of the SDK's CPU profiles lacks the program's main.work.func1: %v", fg.Msg.Flamegraph.Names)
	}

	sel, _ := store.ParseSelector(`{service_name="fleet-app"}`)
	until := time.Now().Add(time.Minute)
	want, err := ref.Merge(ctx, store.Selection{Type: cpu.Type, Selector: sel, Start: start, End: until})
	if err != nil {
		t.Fatal(err)
	}
	var wantBytes bytes.Buffer
	if err := want.Write(&wantBytes); err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, s := range want.Sample {
		total += s.Value[1]
	}
	if fg.Msg.Flamegraph.Total != total {
		t.Errorf("flame graph total %d, the store's merge %d", fg.Msg.Flamegraph.Total, total)
	}
	out := filepath.Join(t.TempDir(), "fleet-app.pb.gz")
	query := exec.Command(perflab, "query", "-store", url, "-from", start.Format(time.RFC3339Nano), "-until", until.Format(time.RFC3339Nano), "-o", out, `{service_name="fleet-app"}`)
	query.Env = append(os.Environ(), "PERFLAB_TOKEN=s3cret")
	if msg, err := query.CombinedOutput(); err != nil {
		t.Fatalf("perflab query: %v\n%s", err, msg)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes.Bytes()) {
		t.Errorf("perflab query against the server wrote %d bytes, not those of the store's merge (%d)", len(got), wantBytes.Len())
	}
}
