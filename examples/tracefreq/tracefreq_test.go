package tracefreq_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/examples/tracefreq"
	"github.com/perflab/perflab/internal/testprog"
)

func TestVariantsAgree(t *testing.T) {
	const n = 60
	docs := tracefreq.Generate(n, "president")
	for _, v := range tracefreq.Variants {
		if got := v.Find("president", docs); got != tracefreq.Expected(n) {
			t.Errorf("%s found %d, want %d", v.Name, got, tracefreq.Expected(n))
		}
	}
}

// TestBusyPVerdicts is the article's finding, measured on this machine:
// perflab trace says find keeps about one P busy and findNumCPU more.
func TestBusyPVerdicts(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs to tell one busy P from several")
	}
	if testing.Short() {
		t.Skip("runs the search twice under the tracer")
	}
	prog := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/tracefreq/cmd/tracefreq")
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	dir := t.TempDir()
	summary := func(variant string) (busy float64, procs int, verdicts []string) {
		tr := filepath.Join(dir, variant+".trace")
		if out, err := exec.Command(prog, "-variant", variant, "-docs", strconv.Itoa(2000), "-trace", tr).CombinedOutput(); err != nil {
			t.Fatalf("tracefreq: %v\n%s", err, out)
		}
		out, err := exec.Command(perflab, "trace", "-json", tr).Output()
		if err != nil {
			t.Fatalf("perflab trace: %v", err)
		}
		var s struct {
			Busy     float64  `json:"procs_busy_avg"`
			Procs    int      `json:"gomaxprocs"`
			Verdicts []string `json:"verdicts"`
		}
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatal(err)
		}
		return s.Busy, s.Procs, s.Verdicts
	}
	busy, procs, verdicts := summary("find")
	if busy > 1.5 || !strings.Contains(strings.Join(verdicts, "\n"), "the work runs one goroutine at a time") {
		t.Errorf("find: %.2f of %d Ps busy, verdicts %q; want about 1 and the one-goroutine verdict", busy, procs, verdicts)
	}
	busy, procs, verdicts = summary("findNumCPU")
	if busy <= 1.2 || strings.Contains(strings.Join(verdicts, "\n"), "one goroutine at a time") {
		t.Errorf("findNumCPU: %.2f of %d Ps busy, verdicts %q; want more than one P busy", busy, procs, verdicts)
	}
}
