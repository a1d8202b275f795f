package ingest

import (
	"bytes"
	"compress/gzip"
	b64 "encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// newServer serves a Handler writing to a new Reference store, through a
// Recorder, on a loopback listener.
func newServer(t testing.TB, opts Options) (*Handler, *storetest.Recorder, *httptest.Server) {
	t.Helper()
	st := storetest.NewRecorder(storetest.NewReference(opts.Limits))
	h := NewHandler(st, opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, st, srv
}

// formBody builds the multipart form Pyroscope's Go SDK sends: a profile
// part, and a sample_type_config part when config is not nil.
func formBody(t testing.TB, prof []byte, config map[string]*sampleTypeConfig) ([]byte, string) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, err := w.CreateFormFile(partProfile, "profile.pprof")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(prof)
	if config != nil {
		fw, err := w.CreateFormFile(partSampleTypeConfig, "sample_type_config.json")
		if err != nil {
			t.Fatal(err)
		}
		json.NewEncoder(fw).Encode(config)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return body.Bytes(), w.FormDataContentType()
}

// ingestQuery is the query the SDK sends with name.
func ingestQuery(name string, from, until time.Time) url.Values {
	q := url.Values{}
	q.Set("name", name)
	q.Set("from", itoa(from.UnixNano()))
	q.Set("until", itoa(until.UnixNano()))
	q.Set("spyName", "gospy")
	q.Set("sampleRate", "100")
	q.Set("units", "samples")
	q.Set("aggregationType", "sum")
	return q
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// post sends body to srv's path with query, returning the status and the
// answer's body.
func post(t testing.TB, srv *httptest.Server, path string, query url.Values, contentType string, body []byte) (int, string) {
	t.Helper()
	u := srv.URL + path
	if query != nil {
		u += "?" + query.Encode()
	}
	resp, err := http.Post(u, contentType, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(msg)
}

// runtimeProfile returns the test process's own profile name, as
// net/http/pprof serves it (gzipped profile.proto).
func runtimeProfile(t testing.TB, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// cpuProfile returns a CPU profile of the test process spinning for d.
func cpuProfile(t testing.TB, d time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Skipf("CPU profiling busy: %v", err)
	}
	spin(d)
	pprof.StopCPUProfile()
	return buf.Bytes()
}

//go:noinline
func spin(d time.Duration) int {
	n := 0
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := range 10000 {
			n += i * i
		}
	}
	return n
}

// gzipped returns data gzipped.
func gzipped(data []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// encode returns p as gzipped profile.proto.
func encode(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// kindOf returns the __name__ of a stored profile.
func kindOf(p store.Profile) string { return p.Labels.Get(store.LabelName) }

// profileOf returns a small valid profile of the kind name (a series'
// __name__ such as process_cpu) with three samples on two stacks.
func profileOf(t testing.TB, name string) *profile.Profile {
	t.Helper()
	var types []*profile.ValueType
	for _, k := range store.Kinds {
		if k.Type.Name == name && len(types) == 0 {
			types = []*profile.ValueType{{Type: k.Type.SampleType, Unit: k.Type.SampleUnit}}
			if name == "process_cpu" {
				types = append([]*profile.ValueType{{Type: "samples", Unit: "count"}}, types...)
			}
		}
	}
	if types == nil {
		t.Fatalf("no kind %s", name)
	}
	fns := []*profile.Function{{ID: 1, Name: "main.main", Filename: "main.go"}, {ID: 2, Name: "main.work", Filename: "main.go"}}
	m := &profile.Mapping{ID: 1, File: "/bin/app"}
	locs := []*profile.Location{
		{ID: 1, Mapping: m, Address: 0x1000, Line: []profile.Line{{Function: fns[0], Line: 10}}},
		{ID: 2, Mapping: m, Address: 0x2000, Line: []profile.Line{{Function: fns[1], Line: 20}}},
	}
	values := func(v int64) []int64 {
		out := make([]int64, len(types))
		for i := range out {
			out[i] = v
		}
		return out
	}
	return &profile.Profile{
		SampleType: types,
		PeriodType: &profile.ValueType{Type: types[len(types)-1].Type, Unit: types[len(types)-1].Unit},
		Period:     1,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locs[1], locs[0]}, Value: values(3)},
			{Location: []*profile.Location{locs[0]}, Value: values(2)},
			{Location: []*profile.Location{locs[1], locs[0]}, Value: values(1), Label: map[string][]string{"route": {"/a"}}},
		},
		Mapping:   []*profile.Mapping{m},
		Location:  locs,
		Function:  fns,
		TimeNanos: time.Now().UnixNano(),
	}
}

// base64 returns data in standard base64, as protobuf's JSON has bytes.
func base64(data []byte) string { return b64.StdEncoding.EncodeToString(data) }
