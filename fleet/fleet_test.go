package fleet_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	neturl "net/url"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	pushv1 "github.com/grafana/pyroscope/api/gen/proto/go/push/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/push/v1/pushv1connect"
	querierv1 "github.com/grafana/pyroscope/api/gen/proto/go/querier/v1"
	"github.com/grafana/pyroscope/api/gen/proto/go/querier/v1/querierv1connect"
	typesv1 "github.com/grafana/pyroscope/api/gen/proto/go/types/v1"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/servertest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/remote"
	"github.com/perflab/perflab/scrape"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// pushFixture pushes storetest's fixture's CPU profiles of service api
// through the Push API, with the given client options and token.
func pushFixture(t *testing.T, url, token string) []store.Profile {
	t.Helper()
	var pushed []store.Profile
	req := &pushv1.PushRequest{}
	for _, p := range storetest.Fixture() {
		if p.Labels.Get("service_name") != "api" || p.Labels.Get("__name__") != "process_cpu" {
			continue
		}
		var b bytes.Buffer
		if err := p.Profile.Write(&b); err != nil {
			t.Fatal(err)
		}
		var ls []*typesv1.LabelPair
		for _, l := range p.Labels {
			ls = append(ls, &typesv1.LabelPair{Name: l.Name, Value: l.Value})
		}
		req.Series = append(req.Series, &pushv1.RawProfileSeries{Labels: ls, Samples: []*pushv1.RawSample{{RawProfile: b.Bytes()}}})
		pushed = append(pushed, p)
	}
	c := pushv1connect.NewPusherServiceClient(http.DefaultClient, url)
	r := connect.NewRequest(req)
	if token != "" {
		r.Header().Set("Authorization", "Bearer "+token)
	}
	if _, err := c.Push(context.Background(), r); err != nil {
		t.Fatalf("Push: %v", err)
	}
	return pushed
}

// TestServerAnswers pushes profiles to a server, then reads them back
// through Pyroscope's querier API and perflab's read API, and checks the
// answers against the store's.
func TestServerAnswers(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	url := servertest.Serve(t, fleet.Options{Store: ref})
	pushed := pushFixture(t, url, "")
	ctx := context.Background()

	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(`{service_name="api"}`)
	want, err := ref.Merge(ctx, store.Selection{Type: cpu.Type, Selector: sel})
	if err != nil {
		t.Fatalf("the store holds no pushed profile: %v", err)
	}
	var total int64
	for _, s := range want.Sample {
		total += s.Value[1]
	}

	q := querierv1connect.NewQuerierServiceClient(http.DefaultClient, url)
	fg, err := q.SelectMergeStacktraces(ctx, connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
		ProfileTypeID: cpu.Type.ID(), LabelSelector: sel.String()}))
	if err != nil {
		t.Fatal(err)
	}
	if fg.Msg.Flamegraph.Total != total {
		t.Errorf("flame graph total %d, want the store's %d", fg.Msg.Flamegraph.Total, total)
	}

	r, err := remote.Open(ctx, url, remote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Merge(ctx, store.Selection{Type: cpu.Type, Selector: sel})
	if err != nil {
		t.Fatal(err)
	}
	if g, w := encode(t, got), encode(t, want); !bytes.Equal(g, w) {
		t.Errorf("read API's merge differs from the store's")
	}
	st, err := r.Stats(ctx)
	if err != nil || st.Profiles != int64(len(pushed)) {
		t.Errorf("Stats = %+v, %v; want %d profiles", st, err, len(pushed))
	}
}

func encode(t *testing.T, p interface{ WriteUncompressed(io.Writer) error }) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.WriteUncompressed(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// get sends a GET of path with the headers given as name, value pairs.
func get(t *testing.T, url, path string, headers ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestGuard checks the token (Bearer in any case, Basic with the token as
// the password), the Host check and the cross-site check on every kind of
// route, and that pushes without browser headers pass.
func TestGuard(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	url := servertest.Serve(t, fleet.Options{Store: ref, Token: "s3cret"})
	paths := []string{"/", remote.PathStats, "/targets", "/querier.v1.QuerierService/ProfileTypes", "/ingest", "/ui/", "/ui/top?from=0", "/download?from=0"}
	for _, path := range paths {
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"no token", nil, http.StatusUnauthorized},
			{"wrong token", []string{"Authorization", "Bearer nope"}, http.StatusUnauthorized},
			{"Basic, wrong password", []string{"Authorization", "Basic dXNlcjpub3Bl"}, http.StatusUnauthorized}, // user:nope
			{"cross-site", []string{"Authorization", "Bearer s3cret", "Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
			{"same-site", []string{"Authorization", "Bearer s3cret", "Sec-Fetch-Site", "same-site"}, http.StatusForbidden},
			{"other origin", []string{"Authorization", "Bearer s3cret", "Origin", "http://evil.example"}, http.StatusForbidden},
			{"rebinding", []string{"Authorization", "Bearer s3cret", "Host", "evil.example:4040"}, http.StatusForbidden},
		} {
			if code, body := get(t, url, path, tc.headers...); code != tc.want {
				t.Errorf("GET %s, %s: %d %q, want %d", path, tc.name, code, body, tc.want)
			}
		}
		for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret", "Basic cGVyZmxhYjpzM2NyZXQ=" /* perflab:s3cret */} {
			code, body := get(t, url, path, "Authorization", auth, "Sec-Fetch-Site", "same-origin")
			if code == http.StatusUnauthorized || code == http.StatusForbidden {
				t.Errorf("GET %s with %q: %d %q, want it served", path, auth, code, body)
			}
		}
	}
	// The viewer's static files hold no data: a page of another site may
	// load them, never without the token or through another Host.
	for _, path := range []string{"/ui/viewer/viewer.js", "/ui/assets/app.js", "/ui/flame/flame.js", "/ui/viewer/chart/uPlot.iife.min.js"} {
		for _, tc := range []struct {
			name    string
			headers []string
			want    int
		}{
			{"cross-site", []string{"Authorization", "Bearer s3cret", "Sec-Fetch-Site", "cross-site"}, http.StatusOK},
			{"no token", []string{"Sec-Fetch-Site", "cross-site"}, http.StatusUnauthorized},
			{"rebinding", []string{"Authorization", "Bearer s3cret", "Host", "evil.example:4040"}, http.StatusForbidden},
		} {
			if code, body := get(t, url, path, tc.headers...); code != tc.want {
				t.Errorf("GET %s, %s: %d %.200q, want %d", path, tc.name, code, body, tc.want)
			}
		}
	}
	pushFixture(t, url, "s3cret") // an SDK sends no browser header
}

// TestViewEscapes pushes a series whose service name is markup and checks
// that the viewer's views of it show it escaped.
func TestViewEscapes(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	p := storetest.Fixture()[0]
	p.Labels = p.Labels.With("service_name", `<script>alert("x")</script>`)
	if err := ref.Write(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	url := servertest.Serve(t, fleet.Options{Store: ref})
	m, err := store.NewMatcher(store.LabelService, store.MatchEqual, `<script>alert("x")</script>`)
	if err != nil {
		t.Fatal(err)
	}
	sel := store.Selector{m}
	code, body := get(t, url, "/ui/top?from=0&query="+neturl.QueryEscape(sel.String()))
	if code != http.StatusOK || strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert") {
		t.Errorf("GET /ui/top = %d, a page that shows the name unescaped or not at all:\n%s", code, body)
	}
}

// TestRetention checks that a server drops the profiles older than its
// retention when it starts, and keeps the others.
func TestRetention(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	fixture := storetest.Fixture()
	if err := ref.Write(context.Background(), fixture...); err != nil {
		t.Fatal(err)
	}
	now := storetest.Epoch.Add(2 * time.Hour)
	servertest.Serve(t, fleet.Options{Store: ref, Retention: time.Hour, Now: func() time.Time { return now }})
	cut := now.Add(-time.Hour)
	want := 0
	for _, p := range fixture {
		at := p.Time
		if at.IsZero() {
			at = time.Unix(0, p.Profile.TimeNanos)
		}
		if !at.Before(cut) {
			want++
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := ref.Stats(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if st.Profiles == int64(want) && !st.Oldest.Before(cut) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after retention: %d profiles from %v, want %d from %v on", st.Profiles, st.Oldest, want, cut)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pprofProgram is a program that serves net/http/pprof on a loopback
// port, prints its address, and burns CPU in a function of its own until
// its standard input closes.
const pprofProgram = `package main

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

var sink int

//go:noinline
func spin() {
	for i := 0; i < 1e6; i++ {
		sink += i * i
	}
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	fmt.Println(ln.Addr())
	go http.Serve(ln, nil)
	go func() { os.Stdin.Read(make([]byte, 1)); os.Exit(0) }()
	for {
		spin()
	}
}
`

// TestServerScrapes scrapes a real program's net/http/pprof through a
// server's scraper, and reads its CPU profile back through the querier
// API: the program's own function is in the flame graph, and the target
// is up at /targets.
func TestServerScrapes(t *testing.T) {
	addr := startProgram(t, testprog.BuildSource(t, pprofProgram))
	job, err := scrape.ParseSpec("spinner=" + addr)
	if err != nil {
		t.Fatal(err)
	}
	job.Interval, job.Timeout = time.Second, 5*time.Second
	ref := storetest.NewReference(store.Limits{})
	url := servertest.Serve(t, fleet.Options{Store: ref, Scrape: scrape.Config{Jobs: []scrape.Job{job}}})

	q := querierv1connect.NewQuerierServiceClient(http.DefaultClient, url)
	cpu, _ := store.LookupKind("cpu")
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := q.SelectMergeStacktraces(context.Background(), connect.NewRequest(&querierv1.SelectMergeStacktracesRequest{
			ProfileTypeID: cpu.Type.ID(), LabelSelector: `{service_name="spinner"}`}))
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(resp.Msg.Flamegraph.Names, "main.spin") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no main.spin in the scraped CPU profiles after 20 s; targets: %+v", getBody(t, url+"/targets"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if body := getBody(t, url+"/targets"); !strings.Contains(body, `"job": "spinner"`) || !strings.Contains(body, `"up": true`) {
		t.Errorf("/targets = %s, want the spinner job up", body)
	}
}

func getBody(t *testing.T, url string) string {
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// startProgram starts bin, returns the address it prints, and stops it
// when the test ends.
func startProgram(t *testing.T, bin string) string {
	t.Helper()
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("program: %v", err)
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the program's address: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestViews checks that the server mounts the viewer: a view below /ui/
// shows the merged profile of the selection its URL names, the last hour
// of CPU profiles unless it says otherwise, and 404 when it picks
// nothing; / is the viewer's page.
func TestViews(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(context.Background(), storetest.Fixture()...); err != nil {
		t.Fatal(err)
	}
	now := storetest.Epoch.Add(2 * time.Hour)
	url := servertest.Serve(t, fleet.Options{Store: ref, Now: func() time.Time { return now }})

	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(`{service_name="db"}`)
	want, err := ref.Merge(context.Background(), store.Selection{Type: cpu.Type, Selector: sel, Start: now.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	code, body := get(t, url, `/ui/top?query=`+neturl.QueryEscape(sel.String()))
	if leaf := want.Sample[0].Location[0].Line[0].Function.Name; code != http.StatusOK || !strings.Contains(body, leaf) || !strings.Contains(body, "/ui/viewer/viewer.js") {
		t.Errorf("GET /ui/top = %d, want the top of db's last hour with %s and the viewer's script:\n%s", code, leaf, body)
	}
	if code, body := get(t, url, `/ui/top?query=`+neturl.QueryEscape(`{service_name="none"}`)); code != http.StatusNotFound || !strings.Contains(body, "no profile in") {
		t.Errorf("GET /ui/top of nothing = %d %q, want 404 in the viewer's page", code, body)
	}
	if code, body := get(t, url, "/"); code != http.StatusOK || !strings.Contains(body, "/ui/viewer/viewer.js") {
		t.Errorf("GET / = %d, want the viewer's page:\n%s", code, body)
	}
}

// TestStoreHealth checks that /targets shows how the store's writes go,
// when the server is told, and the viewer's page a failure, escaped.
func TestStoreHealth(t *testing.T) {
	ref := storetest.NewReference(store.Limits{})
	health := func() (int64, error) { return 1234, errors.New(`insert: <b>connection refused</b>`) }
	url := servertest.Serve(t, fleet.Options{Store: ref, StoreHealth: health})
	code, body := get(t, url, "/targets")
	if code != http.StatusOK || !strings.Contains(body, `"pendingBytes": 1234`) || !strings.Contains(body, `"error": "insert: \u003cb\u003econnection refused`) {
		t.Errorf("GET /targets = %d %s, want the store's health, escaped", code, body)
	}
	code, body = get(t, url, "/")
	if code != http.StatusOK || !strings.Contains(body, "insert: &lt;b&gt;connection refused") || strings.Contains(body, "<b>connection") {
		t.Errorf("GET / = %d, want the store's failure escaped:\n%s", code, body)
	}
	url = servertest.Serve(t, fleet.Options{Store: ref})
	if _, body := get(t, url, "/targets"); strings.Contains(body, `"store"`) {
		t.Errorf("GET /targets without StoreHealth = %s, want no store", body)
	}
}
