package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// TestFlameFileBounded writes the flame graph of the 500,000-sample
// benchmark profile (generated on first use, about a minute): at most
// 2 MB, however many frames the profile has.
func TestFlameFileBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("the benchmark profile is large")
	}
	src, err := profgen.Benchmark()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "flame.html")
	runInProcess(t, "flame", "-o", out, src)
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", out, fi.Size())
	if fi.Size() > 2_000_000 || fi.Size() < 50_000 {
		t.Errorf("flame graph of the benchmark profile is %d bytes, want at most 2 MB and a drawn graph", fi.Size())
	}
}

// TestFlameErrors checks bad command lines (exit 2) and bad inputs (exit
// 1, one line naming the input), and that a failure leaves no file.
func TestFlameErrors(t *testing.T) {
	dir := t.TempDir()
	notProfile := filepath.Join(dir, "notes.txt")
	os.WriteFile(notProfile, []byte("hello, not a profile\n"), 0o644)
	good := filepath.Join(dir, "good.pb.gz")
	writeOneSampleProfile(t, good)
	out := filepath.Join(dir, "out.html")
	bin := perflab(t)
	for _, c := range []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"flame", good}, 2, "-o FILE.html is required"},
		{[]string{"flame", "-o", out}, 2, "no profile given"},
		{[]string{"flame", "-o", out, "-focus=(", good}, 1, "focus"},
		{[]string{"flame", "-o", out, notProfile}, 1, notProfile},
		{[]string{"flame", "-o", filepath.Join(dir, "missing", "x.html"), good}, 1, "missing"},
		{[]string{"flame", "-o", out, "-sample_index=nosuch", good}, 1, "nosuch"},
	} {
		stdout, stderr, code := runPerflab(t, bin, c.args...)
		if code != c.code || !strings.Contains(stderr, c.contains) || stdout != "" || strings.Contains(stderr, "panic") {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.contains)
		}
		if c.code == 1 && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("perflab %q: error is not one line: %q", c.args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("perflab %q left %s behind", c.args, out)
		}
	}
	if _, stderr, code := runPerflab(t, bin, "flame", "-o", out, good); code != 0 {
		t.Fatalf("perflab flame: exit %d: %s", code, stderr)
	}
	page, _ := os.ReadFile(out)
	if !bytes.Contains(page, []byte("main.main")) || !bytes.Contains(page, []byte("mountStatic")) {
		t.Errorf("page lacks the profile's frame or the script")
	}
}

// writeOneSampleProfile writes a valid CPU profile of one sample in
// main.main to path.
func writeOneSampleProfile(t *testing.T, path string) {
	t.Helper()
	fn := &profile.Function{ID: 1, Name: "main.main"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn}}}
	var buf bytes.Buffer
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "cpu", Unit: "nanoseconds"}},
		Function: []*profile.Function{fn}, Location: []*profile.Location{loc},
		Sample: []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{5}}}}
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
