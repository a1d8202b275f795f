package fleettest

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/grafana/pyroscope-go" // testdata/pyroapp is built with it: keep it in go.mod

	"github.com/perflab/perflab/ingest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// TestPyroscopeGoSDK runs a real program instrumented with Pyroscope's Go
// SDK against perflab's ingest handler, unchanged but for its server
// address, and checks that every profile it sends is stored under the
// series Pyroscope would give it: its kind from its sample types (the
// mutex and block profiles told apart), service_name the application
// name, its tags as labels, pyroscope_spy=gospy, and no private label.
func TestPyroscopeGoSDK(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "pyroapp")
	if out, err := exec.Command(testprog.Oracle(t, "go"), "build", "-o", bin, "./testdata/pyroapp").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	st := storetest.NewRecorder(storetest.NewReference(store.Limits{}))
	h := ingest.NewHandler(st, ingest.Options{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "SERVER="+srv.URL, "UPLOAD_RATE=1s", "RUN_FOR=3500ms")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pyroapp: %v\n%s", err, out)
	}
	kinds := map[string]int{}
	for _, p := range st.Written() {
		name := p.Labels.Get(store.LabelName)
		kinds[name]++
		want := store.NewLabels("__name__", name, "service_name", "fleet-app", "region", "eu-1", "version", "1.0.0", "pyroscope_spy", "gospy")
		for _, l := range want {
			if p.Labels.Get(l.Name) != l.Value {
				t.Errorf("%s profile: labels %s, want %s among them", name, p.Labels, want)
				break
			}
		}
		for _, l := range p.Labels {
			if len(l.Name) > 1 && l.Name[:2] == "__" && l.Name != "__name__" {
				t.Errorf("%s profile: private label %s kept", name, l.Name)
			}
		}
		if d := time.Since(p.Time); d < 0 || d > time.Minute {
			t.Errorf("%s profile: time %v", name, p.Time)
		}
	}
	for _, k := range []string{"process_cpu", "memory", "goroutines", "mutex", "block"} {
		if kinds[k] < 2 {
			t.Errorf("%d %s profiles stored, want one each upload (2 or more); stored %v", kinds[k], k, kinds)
		}
	}
	if n := h.InUse(); n != 0 {
		t.Errorf("%d bytes of the memory budget still held", n)
	}
}
