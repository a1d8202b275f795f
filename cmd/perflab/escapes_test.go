package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// escapesJSON is the -json output of perflab escapes.
type escapesJSON struct {
	SampleType string `json:"sample_type"`
	Sites      []struct {
		Func     string   `json:"func"`
		File     string   `json:"file"`
		Line     int      `json:"line"`
		Via      string   `json:"via"`
		Bytes    int64    `json:"bytes"`
		Objects  int64    `json:"objects"`
		Reasons  []string `json:"reasons"`
		Category string   `json:"category"`
	} `json:"sites"`
}

// TestEscapesLeftpad runs the left-pad example's v1 benchmark with a
// memory profile and checks that escapes names the allocations the
// article removes, each on its line with the compiler's reason: the
// padding concatenated in a loop, the StatsD client's Sprintf,
// NewReplacer, FormatFloat and []byte conversion, and the log's Printf.
func TestEscapesLeftpad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	prof := filepath.Join(tmp, "mem.pprof")
	cmd := exec.Command("go", "test", "-run=NONE", "-bench=Handler/v1", "-benchtime=3000x", "-memprofilerate=1",
		"-memprofile="+prof, "-o", filepath.Join(tmp, "leftpad.test"), "./examples/leftpad")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	var got escapesJSON
	if err := json.Unmarshal(runInProcess(t, "escapes", "-json", prof), &got); err != nil {
		t.Fatal(err)
	}
	if got.SampleType != "alloc_space" || len(got.Sites) == 0 {
		t.Fatalf("sample type %q, %d sites", got.SampleType, len(got.Sites))
	}
	dir := filepath.Join(root, "examples", "leftpad")
	line := func(file, text string) int { return lineOf(t, filepath.Join(dir, file), text) }
	for _, want := range []struct {
		file     string
		line     int
		via      string // "" for a direct allocation; "*" for any
		category string
		reason   string
	}{
		{"leftpad.go", line("leftpad.go", "s = string(char) + s"), "", "conversion", "string(char) + s escapes to heap"},
		{"statsd.go", line("statsd.go", `fmt.Sprintf("%s.", s.Namespace)`), "fmt.Sprintf", "callee", "s.Namespace escapes to heap"},
		{"statsd.go", line("statsd.go", `fmt.Sprintf("%s.", s.Namespace)`), "", "interface", "s.Namespace escapes to heap"},
		{"statsd.go", line("statsd.go", "strings.NewReplacer("), "strings.NewReplacer", "address", "&strings.Replacer{...} escapes to heap"},
		{"statsd.go", line("statsd.go", "strconv.FormatFloat(delta"), "*", "*", "inlining call to strconv.FormatFloat"},
		{"statsd.go", line("statsd.go", "[]byte(buf)"), "", "conversion", "([]byte)(buf) escapes to heap"},
		{"service.go", line("service.go", `s.logV1.Printf("url=`), "", "interface", "clientIP(r) escapes to heap"},
		{"query.go", line("query.go", `get("str")`), "net/http.(*Request).FormValue", "callee", ""},
	} {
		found := false
		for _, s := range got.Sites {
			if s.File != filepath.Join(dir, want.file) || s.Line != want.line || (want.via != "*" && s.Via != want.via) {
				continue
			}
			if (want.category == "*" || s.Category == want.category) && (want.reason == "" || contains(s.Reasons, want.reason)) && s.Bytes > 0 && s.Objects > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no site %s:%d via %q in category %q with reason %q; sites there:\n%s", want.file, want.line, want.via, want.category, want.reason, sitesAt(got, want.line))
		}
	}
	if s := got.Sites[0]; !strings.HasSuffix(s.Func, ".leftpadV1") {
		t.Errorf("heaviest site is %s at %s:%d, want leftpadV1's concatenation", s.Func, s.File, s.Line)
	}
	text := string(runInProcess(t, "escapes", prof))
	for _, want := range []string{"Type: alloc_space", "string/[]byte conversion or concatenation:", "  hint: ", "leftpad.leftpadV1 examples/leftpad/leftpad.go:"} {
		if !strings.Contains(text, want) && !strings.Contains(text, strings.Replace(want, "examples/leftpad/", filepath.Join(dir, "")+"/", 1)) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

// lineOf returns the number of the first line of file holding text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), text) {
			return n
		}
	}
	t.Fatalf("%s: no line holds %q", file, text)
	return 0
}

func sitesAt(got escapesJSON, line int) string {
	var b strings.Builder
	for _, s := range got.Sites {
		if s.Line == line {
			b.WriteString("  " + s.Func + " " + filepath.Base(s.File) + " via " + s.Via + " " + s.Category + " " + strings.Join(s.Reasons, " | ") + "\n")
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestEscapesNotHeap: a profile without allocation sample types is one
// line naming the profile and the cause, exit status 1.
func TestEscapesNotHeap(t *testing.T) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10000000,
	}
	fn := &profile.Function{ID: 1, Name: "main.main", Filename: "main.go"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn, Line: 3}}}
	p.Function, p.Location = []*profile.Function{fn}, []*profile.Location{loc}
	p.Sample = []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{1, 10000000}}}
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(""), &stdout, &stderr, []string{"escapes", path})
	code := exitCode(&stderr, err)
	msg := stderr.String()
	if code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, path) || !strings.Contains(msg, "not a heap or allocs profile") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line naming %s", code, stdout.String(), msg, path)
	}
}
