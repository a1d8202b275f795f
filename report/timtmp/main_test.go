package tim

import (
	"context"
	"io"
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
)

func TestTime(t *testing.T) {
	f, _ := os.Create("/tmp/tim/cpu.prof")
	pprof.StartCPUProfile(f)
	defer pprof.StopCPUProfile()
	t0 := time.Now()
	p, err := profiles.Load(context.Background(), []string{os.Getenv("BIG")}, profiles.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	o := report.DefaultOptions()
	o.NodeCount = 20
	if err := report.Generate(io.Discard, p, report.Top, o); err != nil {
		t.Fatal(err)
	}
	t.Logf("load %v report %v", t1.Sub(t0), time.Since(t1))
}
