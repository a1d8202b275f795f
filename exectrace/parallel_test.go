package exectrace_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/exectrace"
)

// outputs is everything a summary and its profiles print.
func outputs(t *testing.T, a *exectrace.Analyzer) string {
	t.Helper()
	s := a.Finish()
	var b strings.Builder
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	b.Write(js)
	for k := range 4 {
		if err := a.WriteProfile(&b, exectrace.ProfileKind(k)); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// TestAnalyzeMatchesRead: reading the generations of a trace at once,
// Analyze gives the summary and profiles of Read's one pass to the byte,
// on traces of real programs with generations of 20 ms (about 5 s).
func TestAnalyzeMatchesRead(t *testing.T) {
	bin := tracedProgram(t)
	traces := map[string][]byte{}
	for _, mode := range []string{"pool", "gc", "server"} {
		data, err := os.ReadFile(recordTrace(t, bin, mode, "GODEBUG=traceadvanceperiod=20000000")) // 20 ms generations
		if err != nil {
			t.Fatal(err)
		}
		traces[mode] = data
	}
	for name, data := range traces {
		one := exectrace.NewAnalyzer()
		info1, err := exectrace.Read(bytes.NewReader(data), one)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		par, info2, err := exectrace.Analyze(context.Background(), bytes.NewReader(data), int64(len(data)), exectrace.ParallelWorkers)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if info1 != info2 || info1.Generations < 2 {
			t.Errorf("%s: Analyze read %+v, Read %+v; want the same, over several generations", name, info2, info1)
		}
		if want, got := outputs(t, one), outputs(t, par); got != want {
			t.Errorf("%s: Analyze's summary and profiles differ from Read's", name)
		}
	}
	// What Analyze cannot read a generation at a time, Read reads and
	// tells what is wrong with it.
	cut := cutInSecondGeneration(t, traces["pool"])
	for _, bad := range [][]byte{[]byte("not a trace at all"), cut} {
		_, err1 := exectrace.Read(bytes.NewReader(bad), exectrace.NewAnalyzer())
		_, _, err2 := exectrace.Analyze(context.Background(), bytes.NewReader(bad), int64(len(bad)), exectrace.ParallelWorkers)
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			t.Errorf("Analyze says %v, Read %v", err2, err1)
		}
	}
}
