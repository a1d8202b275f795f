package profiles

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/exp/trace"

	"github.com/perflab/perflab/internal/testprog"
)

// traceServer serves net/http/pprof's execution trace, a fixed copy of a
// real trace whole and cut short, and a page of HTML. It records the last
// query.
func traceServer(t *testing.T) (srv *httptest.Server, whole []byte, lastQuery func() string) {
	t.Helper()
	whole = ownTrace(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/whole", func(w http.ResponseWriter, r *http.Request) { w.Write(whole) })
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) { w.Write(whole[:len(whole)*2/3]) })
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<html><body>Welcome</body></html>\n"))
	})
	srv, lastQuery = testprog.RecordingServer(t, mux)
	return srv, whole, lastQuery
}

// ownTrace records a short execution trace of this test process through
// net/http/pprof's handler.
func ownTrace(t *testing.T) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	pprof.Trace(rec, httptest.NewRequest("GET", "/debug/pprof/trace?seconds=0.2", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("recording a trace: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// countEvents reads a whole trace, independently of Fetch.
func countEvents(t *testing.T, data []byte) int {
	t.Helper()
	r, err := trace.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		if _, err := r.ReadEvent(); err == io.EOF {
			return n
		} else if err != nil {
			t.Fatalf("after %d events: %v", n, err)
		}
		n++
	}
}

func TestFetchTrace(t *testing.T) {
	srv, whole, lastQuery := traceServer(t)
	var buf bytes.Buffer
	s, err := Fetch(context.Background(), srv.URL+"/whole", &buf, false, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), whole) || s.Kind != "trace" || s.Bytes != int64(len(whole)) || s.Events != countEvents(t, whole) {
		t.Errorf("Fetch saved %d bytes (%+v); want the %d bytes served, %d events", buf.Len(), s, len(whole), countEvents(t, whole))
	}

	// A live trace: -seconds becomes the endpoint's seconds parameter.
	buf.Reset()
	s, err = Fetch(context.Background(), srv.URL+"/debug/pprof/trace", &buf, false, Options{Seconds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if q := lastQuery(); q != "/debug/pprof/trace?seconds=1" {
		t.Errorf("requested %s; want /debug/pprof/trace?seconds=1", q)
	}
	if s.Kind != "trace" || s.Events == 0 || s.Events != countEvents(t, buf.Bytes()) {
		t.Errorf("Fetch of a live trace: %+v, %d bytes", s, buf.Len())
	}

	// A file holding a trace is checked the same way.
	file := filepath.Join(t.TempDir(), "trace.out")
	if err := os.WriteFile(file, whole, 0o644); err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if s, err := Fetch(context.Background(), file, &buf, false, Options{}); err != nil || s.Kind != "trace" || !bytes.Equal(buf.Bytes(), whole) {
		t.Errorf("Fetch of a trace file: %+v, %v", s, err)
	}
}

func TestFetchRefusals(t *testing.T) {
	srv, whole, _ := traceServer(t)
	psrv, _ := pprofServer(t)
	tests := []struct {
		source string
		opts   Options
		want   string
	}{
		{srv.URL + "/cut", Options{}, srv.URL + "/cut: not a valid execution trace after "},
		{srv.URL + "/whole", Options{MaxBytes: int64(len(whole) / 2)}, "(the limit; raise it with -max_bytes)"},
		{srv.URL + "/html", Options{}, srv.URL + `/html: the response is not a profile or a trace (content-type text/html; not a profile: unrecognized text format starting "<html><body>Welcome</body></html>"); use -raw to save it as is`},
		{psrv.URL + "/debug/pprof/heap", Options{MaxBytes: 100}, "is more than 100 bytes (the limit"},
		{psrv.URL + "/debug/pprof/goroutine?debug=2", Options{}, "the response is not a profile or a trace (content-type text/plain; not a profile"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		_, err := Fetch(context.Background(), tt.source, &buf, false, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Fetch %s: %v; want one line containing %q", tt.source, err, tt.want)
		}
		if strings.HasPrefix(tt.want, "is more") && !errors.Is(err, ErrTooLarge) {
			t.Errorf("Fetch %s: %v does not wrap ErrTooLarge", tt.source, err)
		}
	}

	// -raw saves them as is.
	var buf bytes.Buffer
	s, err := Fetch(context.Background(), srv.URL+"/html", &buf, true, Options{})
	if err != nil || s.Kind != "data" || buf.String() != "<html><body>Welcome</body></html>\n" {
		t.Errorf("Fetch -raw: %+v %q %v", s, buf.String(), err)
	}
	buf.Reset()
	if _, err := Fetch(context.Background(), srv.URL+"/whole", &buf, true, Options{MaxBytes: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Fetch -raw beyond MaxBytes: %v", err)
	}
}

// TestFetchWriteError checks that the writer's error comes back as is.
func TestFetchWriteError(t *testing.T) {
	srv, _, _ := traceServer(t)
	boom := errors.New("disk full")
	for _, path := range []string{"/whole", "/html"} {
		_, err := Fetch(context.Background(), srv.URL+path, failingWriter{boom}, path == "/html", Options{})
		if err != boom {
			t.Errorf("Fetch %s to a failing writer: %v", path, err)
		}
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write(p []byte) (int, error) { return 0, w.err }

// TestErrorsIs checks that callers can tell a missing file, a canceled
// fetch and a timeout apart with errors.Is.
func TestErrorsIs(t *testing.T) {
	srv, _ := pprofServer(t)
	missing := filepath.Join(t.TempDir(), "nosuch.pprof")
	canceled, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	tests := []struct {
		ctx    context.Context
		source string
		opts   Options
		want   error
	}{
		{context.Background(), missing, Options{}, fs.ErrNotExist},
		{canceled, srv.URL + "/slow", Options{}, context.Canceled},
		{context.Background(), srv.URL + "/slow", Options{Timeout: 100 * time.Millisecond}, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		_, err := ReadSource(tt.ctx, tt.source, tt.opts)
		if !errors.Is(err, tt.want) {
			t.Errorf("ReadSource %s: %v; want errors.Is %v", tt.source, err, tt.want)
		}
		_, err = Fetch(tt.ctx, tt.source, io.Discard, false, tt.opts)
		if !errors.Is(err, tt.want) {
			t.Errorf("Fetch %s: %v; want errors.Is %v", tt.source, err, tt.want)
		}
		_, err = Load(tt.ctx, []string{tt.source}, tt.opts)
		if !errors.Is(err, tt.want) {
			t.Errorf("Load %s: %v; want errors.Is %v", tt.source, err, tt.want)
		}
	}
}

// TestDurationRange checks that durations a time.Duration cannot hold
// with the transfer grace are refused, not turned into negative timeouts.
func TestDurationRange(t *testing.T) {
	for _, opts := range []Options{{Seconds: 7000000000}, {Seconds: -1}, {Timeout: -time.Second}, {Timeout: MaxTimeout + 1}} {
		_, err := ReadSource(context.Background(), "127.0.0.1:1", opts)
		if err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("ReadSource with %+v: %v", opts, err)
		}
	}
	_, timeout, _, _ := SourceURL("127.0.0.1:1/x?seconds=2147483647", 0, 0)
	if timeout <= 0 {
		t.Errorf("SourceURL with seconds=2147483647: timeout %v", timeout)
	}
}

// FuzzSave checks that whatever a source holds, save neither panics nor
// writes anything but the source itself.
func FuzzSave(f *testing.F) {
	f.Add([]byte("go 1.26 trace\x00\x00\x00"))
	f.Add([]byte("go 1.22 trace\x00\x00\x00\x01\x02\x03"))
	f.Add([]byte("go 1.11 trace\x00\x00\x00\x00"))
	f.Add([]byte("<html></html>"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var buf bytes.Buffer
		r := &sourceReader{Reader: bytes.NewReader(data), name: "fuzz"}
		s, err := save(r, &buf, false, Options{MaxBytes: 1 << 20})
		if err != nil {
			return
		}
		if !bytes.Equal(buf.Bytes(), data) || s.Bytes != int64(len(data)) {
			t.Fatalf("saved %d bytes (%+v) of %d", buf.Len(), s, len(data))
		}
	})
}
